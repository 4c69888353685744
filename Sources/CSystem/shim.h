#pragma once
#include <malloc.h>

/* M_ARENA_MAX as a constant Swift can import. */
static inline int dayfold_limit_malloc_arenas(int arenas) {
    /* A fixed mmap threshold: large buffers (id maps, fact tables) always
       come from mmap and go back to the system when freed, instead of glibc
       raising the threshold and keeping them in the heap. CSV batches (a few
       MB, allocated and freed all the time) stay below it, so their memory is
       reused instead of being mapped and faulted in again for every batch. */
    mallopt(M_MMAP_THRESHOLD, 8 * 1024 * 1024);
    return mallopt(M_ARENA_MAX, arenas);
}

/* Asks the CPU to start loading the cache line at `address` (a hint: it
   never faults). */
static inline void dayfold_prefetch(const void *address) { __builtin_prefetch(address); }

/* Gives freed heap memory back to the system between partitions. */
static inline void dayfold_trim_heap(void) { malloc_trim(0); }
