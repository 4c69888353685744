import Foundation

/// Buffers of batches the reader is done with, handed back to the parsing
/// thread to fill again. A fresh 2 MB input buffer and field table per batch
/// had every page faulted in anew (about 0.1 CPU-second per GB read); a
/// recycled one is already mapped. Value semantics keep this safe: a buffer
/// something still shares is not reused but replaced (`removeAll` on a shared
/// array allocates), and a field table is taken only when nothing else holds it.
final class CSVBatchRecycler: @unchecked Sendable {
    private let lock = NSLock()
    private var inputs: [[UInt8]] = []
    private var offsets: [FieldOffsets] = []
    /// Kept at most: the batches in flight between the threads come back
    /// faster than they are needed, and the rest go back to malloc.
    private let limit = 3

    /// Called as a batch goes away.
    func put(input: [UInt8], offsets table: FieldOffsets) {
        lock.lock()
        defer { lock.unlock() }
        if inputs.count < limit { inputs.append(input) }
        if offsets.count < limit { offsets.append(table) }
    }

    /// An empty buffer with room for `capacity` bytes, recycled when one is free.
    func input(capacity: Int) -> [UInt8] {
        lock.lock()
        var buffer = inputs.popLast() ?? []
        lock.unlock()
        buffer.removeAll(keepingCapacity: true)
        buffer.reserveCapacity(capacity)
        return buffer
    }

    /// An empty field table with room for `capacity` fields: a recycled one
    /// when one is free and no longer held elsewhere.
    func fieldOffsets(capacity: Int) -> FieldOffsets {
        lock.lock()
        var candidate = offsets.popLast()
        lock.unlock()
        // Checked before any second reference to it is made.
        if isKnownUniquelyReferenced(&candidate), let table = candidate, table.reset(capacity: capacity) {
            return table
        }
        return FieldOffsets(capacity: capacity)
    }
}
