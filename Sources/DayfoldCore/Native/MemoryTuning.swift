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
