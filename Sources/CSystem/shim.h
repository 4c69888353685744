#pragma once
#include <malloc.h>
#include <stdint.h>

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

/* For a whole run in a process that exits after it: buffers up to 32 MB
   (glibc's largest threshold) come from the heap, and freed heap memory is
   kept for reuse instead of being given back, so memory freed and allocated
   again is not faulted in and zeroed by the kernel a second time. One arena
   for all threads: memory one thread freed (ingest's tables) is reused by
   the next (the writers') instead of staying in its own arena. */
static inline void dayfold_keep_freed_memory(void) {
    mallopt(M_ARENA_MAX, 1);
    mallopt(M_MMAP_THRESHOLD, 32 * 1024 * 1024);
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
    mallopt(M_TOP_PAD, 64 * 1024 * 1024);
}

/* Asks the CPU to start loading the cache line at `address` (a hint: it
   never faults). */
static inline void dayfold_prefetch(const void *address) { __builtin_prefetch(address); }

/* Gives freed heap memory back to the system between partitions. */
static inline void dayfold_trim_heap(void) { malloc_trim(0); }

#if defined(__linux__)
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

/* The calling thread's kernel id (Linux), -1 elsewhere. */
static inline int dayfold_thread_id(void) {
#if defined(__linux__)
    return (int)syscall(SYS_gettid);
#else
    return -1;
#endif
}

/* Moves thread `tid` (0: the calling thread) to SCHED_IDLE (`idle`) or
   back to SCHED_OTHER; returns 0 on success. (<sched.h> names SCHED_IDLE
   only under _GNU_SOURCE; its value is 5.) Leaving SCHED_IDLE needs
   CAP_SYS_NICE or a RLIMIT_NICE that allows nice 0. */
static inline int dayfold_set_idle_policy(int tid, int idle) {
#if defined(__linux__)
    struct sched_param param = {0};
    return sched_setscheduler(tid, idle ? 5 : SCHED_OTHER, &param);
#else
    (void)tid; (void)idle;
    return -1;
#endif
}

#if defined(__linux__)
#include <sys/resource.h>
#endif

/* The soft RLIMIT_NICE (Linux; 0 elsewhere): nice values down to 20 minus it
   may be set without privileges. */
static inline long long dayfold_nice_limit(void) {
#if defined(__linux__)
    struct rlimit limit;
    if (getrlimit(RLIMIT_NICE, &limit) != 0) return 0;
    return limit.rlim_cur == RLIM_INFINITY ? 1LL << 40 : (long long)limit.rlim_cur;
#else
    return 0;
#endif
}

#if defined(__linux__)
#include <sys/mman.h>
#endif

/* Asks for transparent huge pages (2 MB) over the whole 2 MB pages inside
   [start, start + bytes): pages not yet touched there are then faulted in
   2 MB at a time. A hint: returns 0 when applied, -1 when nothing was
   (no whole 2 MB page inside, or not Linux). */
static inline int dayfold_advise_huge_pages(void *start, size_t bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    const uintptr_t huge = (uintptr_t)2 << 20;
    uintptr_t first = ((uintptr_t)start + huge - 1) & ~(huge - 1);
    uintptr_t last = ((uintptr_t)start + bytes) & ~(huge - 1);
    if (last <= first) return -1;
    return madvise((void *)first, last - first, MADV_HUGEPAGE);
#else
    (void)start; (void)bytes;
    return -1;
#endif
}

/* O_DIRECT (a GNU extension of open(2)'s flags, which Swift's Glibc module
   leaves out): the flag that writes a file without the page cache, or 0
   where there is none (the open then goes through the cache). */
#if defined(__linux__)
#include <fcntl.h>
static const int dayfold_open_direct = __O_DIRECT;
#else
static const int dayfold_open_direct = 0;
#endif
