import Foundation

/// The last few distinct byte strings looked up and what they resolved to.
/// Some columns take a handful of values that rows cycle through (a task's
/// kind, its action schema) or repeat for long runs (a client's zone): a few
/// length checks and one comparison of the bytes cost less than hashing them
/// and probing a table whose slots are far apart in memory.
/// `LastKeyCache` keeps only the last key: a cycle of kinds never hits it.
struct RecentKeys<Value> {
    /// Keys held at once; the oldest is replaced by a new one.
    static var slots: Int { 8 }
    /// Longer keys are not kept (they take the table's path every time).
    static var maxKeyBytes: Int { 96 }

    private var bytes = [UInt8](repeating: 0, count: slots * maxKeyBytes)
    /// Per slot: its key's length, -1 while empty.
    private var lengths = [Int](repeating: -1, count: slots)
    private var values: [Value?] = Array(repeating: nil, count: slots)
    private var oldest = 0

    /// The value kept for exactly these bytes, if they are among the recent keys.
    func value(for key: UnsafeBufferPointer<UInt8>) -> Value? {
        bytes.withUnsafeBytes { stored in
            for slot in 0..<Self.slots where lengths[slot] == key.count {
                guard let newBase = key.baseAddress, let storedBase = stored.baseAddress else {
                    return values[slot]  // the empty key
                }
                if memcmp(storedBase + slot * Self.maxKeyBytes, newBase, key.count) == 0 { return values[slot] }
            }
            return nil
        }
    }

    /// The value for the field `bytes[field]`: kept, or made by `make` and kept.
    mutating func value(for bytes: [UInt8], field: Range<Int>, _ make: () -> Value) -> Value {
        bytes.withUnsafeBufferPointer { buffer in
            let key = UnsafeBufferPointer(rebasing: buffer[field])
            return value(for: key, make)
        }
    }

    /// Keeps `key` (when short enough) in place of the oldest key.
    mutating func store(_ key: some Collection<UInt8>, _ value: Value) {
        guard key.count <= Self.maxKeyBytes else { return }
        let slot = oldest
        bytes.withUnsafeMutableBufferPointer { stored in
            for (offset, byte) in key.enumerated() { stored[slot * Self.maxKeyBytes + offset] = byte }
        }
        lengths[slot] = key.count
        values[slot] = value
        oldest = (oldest + 1) % Self.slots
    }

    /// The value for `key`: kept, or made by `make` and kept.
    mutating func value(for key: UnsafeBufferPointer<UInt8>, _ make: () -> Value) -> Value {
        if let value = value(for: key) { return value }
        let value = make()
        store(key, value)
        return value
    }
}
