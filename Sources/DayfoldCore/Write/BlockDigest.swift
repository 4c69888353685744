/// The SHA-256 of what one block of a snapshot's rows is built from (the
/// facts and names its columns read), so that a later run can tell, without
/// building the block, that its rows are the same as a block it wrote
/// before (`SnapshotBlockWriter`).
///
/// Values go in as 64-bit words (numbers, and rows' fingerprints,
/// `RowFingerprints`), gathered and hashed a large piece at a time: a
/// hasher call per value would cost more than the value.
struct BlockDigest: ~Copyable {
    private var hasher = SHA256Hasher()
    private var words: [UInt64] = []
    private static let flushAt = 1 << 13

    init() { words.reserveCapacity(Self.flushAt + 64) }

    mutating func append(_ value: Int64) {
        append(word: UInt64(bitPattern: value))
    }

    mutating func append(word: UInt64) {
        words.append(word)
        if words.count >= Self.flushAt { flush() }
    }

    private mutating func flush() {
        hasher.update(words: words)
        words.removeAll(keepingCapacity: true)
    }

    /// The hex digest; the digest is used up.
    consuming func finalize() -> String {
        flush()
        return hasher.finalizeHex()
    }
}
