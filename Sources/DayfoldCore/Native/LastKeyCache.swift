import Foundation

/// The last byte string looked up and what it resolved to. Rows often repeat
/// the previous row's value (a user's samples come together, a unit or a
/// kind runs on for many rows): comparing those bytes costs less than
/// hashing them and probing a table.
struct LastKeyCache<Value> {
    private var key: [UInt8] = []
    private var value: Value?

    /// The value stored for exactly these bytes, if they are the last key.
    func value(for bytes: UnsafeBufferPointer<UInt8>) -> Value? {
        guard let value, bytes.count == key.count else { return nil }
        let same = key.withUnsafeBufferPointer { old in
            guard let newBase = bytes.baseAddress, let oldBase = old.baseAddress else { return bytes.count == 0 }
            return memcmp(newBase, oldBase, bytes.count) == 0
        }
        return same ? value : nil
    }

    /// The value stored for the field `bytes[field]`, if it is the last key.
    func value(for bytes: [UInt8], field: Range<Int>) -> Value? {
        bytes.withUnsafeBufferPointer { value(for: UnsafeBufferPointer(rebasing: $0[field])) }
    }

    /// Makes `bytes` the last key.
    mutating func store(_ bytes: some Collection<UInt8>, _ value: Value) {
        key.removeAll(keepingCapacity: true)
        key.append(contentsOf: bytes)
        self.value = value
    }
}
