#pragma once
#include <malloc.h>

/* M_ARENA_MAX as a constant Swift can import. */
static inline int dayfold_limit_malloc_arenas(int arenas) {
    /* A fixed mmap threshold: large buffers (id maps, batches) always come
       from mmap and go back to the system when freed, instead of glibc
       raising the threshold and keeping them in the heap. */
    mallopt(M_MMAP_THRESHOLD, 256 * 1024);
    return mallopt(M_ARENA_MAX, arenas);
}

/* Gives freed heap memory back to the system between partitions. */
static inline void dayfold_trim_heap(void) { malloc_trim(0); }
