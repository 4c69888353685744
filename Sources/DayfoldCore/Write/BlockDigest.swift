/// The SHA-256 of what one block of a snapshot's rows is built from (the
/// facts and names its columns read), so that a later run can tell, without
/// building the block, that its rows are the same as a block it wrote
/// before (`SnapshotBlockWriter`).
///
/// Every value is written with its length or a fixed width, and NULL with a
/// marker of its own, so that two different sequences of values never give
/// the same bytes. Bytes are gathered in a buffer and hashed a large piece
/// at a time: a hasher call per value would cost more than the value.
struct BlockDigest: ~Copyable {
    private var hasher = SHA256Hasher()
    private var buffer: [UInt8] = []
    private static let flushAt = 1 << 16

    init() { buffer.reserveCapacity(Self.flushAt + 256) }

    /// A length-prefixed byte string; nil is NULL (not the empty string).
    mutating func append(_ bytes: ArraySlice<UInt8>?) {
        guard let bytes else {
            append(Int64(-1))
            return
        }
        append(Int64(bytes.count))
        buffer.append(contentsOf: bytes)
        flushIfFull()
    }

    mutating func append(_ text: String?) {
        guard let text else {
            append(nil as ArraySlice<UInt8>?)
            return
        }
        append(ArraySlice(text.utf8))
    }

    /// Eight bytes, little-endian.
    mutating func append(_ value: Int64) {
        var word = UInt64(bitPattern: value)
        for _ in 0..<8 {
            buffer.append(UInt8(truncatingIfNeeded: word))
            word >>= 8
        }
        flushIfFull()
    }

    mutating func append(byte: UInt8) {
        buffer.append(byte)
        flushIfFull()
    }

    private mutating func flushIfFull() {
        guard buffer.count >= Self.flushAt else { return }
        hasher.update(buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    /// The hex digest; the digest is used up.
    consuming func finalize() -> String {
        hasher.update(buffer)
        return hasher.finalizeHex()
    }
}
