import CSystem

/// Starts loading the cache line holding `array[index]` (a hint that never
/// faults; an index out of range does nothing): for loops that gather from
/// large arrays in an order of their own, a few iterations ahead.
@inline(__always)
func prefetchElement<Element>(_ array: [Element], _ index: Int) {
    guard array.indices.contains(index) else { return }
    array.withUnsafeBufferPointer { buffer in
        if let base = buffer.baseAddress { dayfold_prefetch(base + index) }
    }
}
