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

// The `prefetch` methods are `mutating` though they write nothing: a table
// kept in a class or a closure's captured variable is then reached in place.
// As plain methods, the whole table was copied out of its owner on each
// call, a retain and a release per array, per row.

extension FingerprintSet {
    /// Starts loading the slot where `value`'s probe begins.
    mutating func prefetch(_ value: UInt64) { prefetchSlot(slots, value) }
}

extension FingerprintMap {
    /// Starts loading the slot where `key`'s probe begins.
    mutating func prefetch(_ key: UInt64) { prefetchSlot(slots, key) }
}

extension ByteKeyTable {
    /// Starts loading the slot where the probe of a key with this hash begins.
    mutating func prefetch(hash: UInt64) { prefetchSlot(slots, hash) }
}

/// Slot tables are powers of two indexed by the hash's low bits.
@inline(__always)
private func prefetchSlot<Slot>(_ slots: [Slot], _ hash: UInt64) {
    prefetchElement(slots, Int(truncatingIfNeeded: hash) & (slots.count - 1))
}
