import CSystem

/// Process-wide heap settings (glibc `mallopt`): the executable's choice,
/// made once before a run (`PipelineRunner.memoryProfile` says which fits),
/// never the library's. A library that set them would change the heap of
/// every program linking it, tests included.
public enum ProcessTuning {
    /// Under a memory budget (a partitioned run): at most two malloc arenas.
    /// The CSV parsing threads allocate batches that the reading thread
    /// frees; with one arena per thread glibc keeps that memory in several
    /// arenas and RSS creeps up. Large buffers (id maps, fact tables) always
    /// come from mmap, so they go back to the system when freed.
    public static func limitMallocArenas() {
        _ = dayfold_limit_malloc_arenas(2)
    }

    /// For a whole run in a process that exits after it (no memory budget):
    /// freed memory stays in the heap for the next allocations. Buffers freed
    /// and allocated again (batches, tables that grow, write buffers) otherwise
    /// went back to the system and were faulted in and zeroed again: about a
    /// fifth of a 1 GB run's page faults. All threads share one arena, so what
    /// one thread frees another reuses: with an arena per thread, the kept
    /// memory raised a 1 GB run's peak RSS from 0.88 to 1.05 GB; shared, it is 0.80 GB.
    public static func keepFreedMemory() {
        dayfold_keep_freed_memory()
    }
}

/// Returns freed heap memory to the system (between partitions, whose
/// allocations are all gone by then), so RSS follows what is live. An act,
/// not a setting: it changes nothing for the allocations that follow.
func trimHeap() {
    dayfold_trim_heap()
}
