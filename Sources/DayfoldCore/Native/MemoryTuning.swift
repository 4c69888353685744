import CSystem

/// Under a memory budget: at most two malloc arenas. The CSV parsing threads
/// allocate batches that the reading thread frees; with one arena per thread
/// glibc keeps that memory in several arenas and RSS creeps up.
func limitMallocArenas() {
    _ = dayfold_limit_malloc_arenas(2)
}

/// Returns freed heap memory to the system (between partitions, whose
/// allocations are all gone by then), so RSS follows what is live.
func trimHeap() {
    dayfold_trim_heap()
}

/// For a whole run in a process that exits after it (no memory budget):
/// freed memory stays in the heap for the next allocations. Buffers freed
/// and allocated again (batches, tables that grow, write buffers) otherwise
/// went back to the system and were faulted in and zeroed again: about a
/// fifth of a 1 GB run's page faults. All threads share one arena, so what
/// one thread frees another reuses: with an arena per thread, the kept
/// memory raised a 1 GB run's peak RSS from 0.88 to 1.05 GB; shared, it is 0.80 GB.
func keepFreedMemory() {
    dayfold_keep_freed_memory()
}
