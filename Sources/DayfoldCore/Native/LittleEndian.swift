import Foundation

/// Fixed-width integers as little-endian bytes, for dayfold's own spill
/// files (the partition router's key/group pairs): written and read a word
/// at a time instead of byte by byte.
extension Array where Element == UInt8 {
    /// Appends `value`'s bytes, least significant first.
    mutating func appendLittleEndian<Value: FixedWidthInteger>(_ value: Value) {
        Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) }
    }
}

extension Data {
    /// The `(UInt64, Int32)` pairs written one after the other by
    /// `appendLittleEndian` (12 bytes each; a partial pair at the end is left out).
    func littleEndianPairs() -> [(UInt64, Int32)] {
        var pairs: [(UInt64, Int32)] = []
        pairs.reserveCapacity(count / 12)
        withUnsafeBytes { raw in
            var offset = 0
            while offset + 12 <= raw.count {
                let key = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                let group = Int32(littleEndian: raw.loadUnaligned(fromByteOffset: offset + 8, as: Int32.self))
                pairs.append((key, group))
                offset += 12
            }
        }
        return pairs
    }
}
