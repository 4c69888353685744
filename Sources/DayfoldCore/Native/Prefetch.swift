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

// `expectLookup` is how domain code tells a large table that a lookup of a
// key is a few rows away: the table loads the slot the probe will start at
// (its own memory, its own layout), so the lookup finds it in cache. The
// caller names keys, never slots or addresses.
//
// The methods are `mutating` though they write nothing: a table kept in a
// class or a closure's captured variable is then reached in place. As plain
// methods, the whole table was copied out of its owner on each call, a
// retain and a release per array, per row.

extension FingerprintSet {
    /// A lookup or insert of `value` is coming: starts loading the slot where its probe begins.
    mutating func expectLookup(_ value: UInt64) { prefetchSlot(slots, value) }
}

extension FingerprintMap {
    /// A lookup or insert of `key` is coming: starts loading the slot where its probe begins.
    mutating func expectLookup(_ key: UInt64) { prefetchSlot(slots, key) }
}

extension ByteKeyTable {
    /// A lookup of a key with this hash is coming: starts loading the slot where its probe begins.
    mutating func expectLookup(hash: UInt64) { prefetchSlot(slots, hash) }
}

/// Slot tables are powers of two indexed by the hash's low bits.
@inline(__always)
private func prefetchSlot<Slot>(_ slots: [Slot], _ hash: UInt64) {
    prefetchElement(slots, Int(truncatingIfNeeded: hash) & (slots.count - 1))
}
