/// The SHA-256 of what one block of a snapshot's rows is built from (the
/// facts and names its columns read), so that a later run can tell, without
/// building the block, that its rows are the same as a block it wrote
/// before (`SnapshotBlockWriter`).
///
/// Values go in as 64-bit words: a number is one word, a byte string its
/// length then its bytes packed eight to a word, NULL a length of −1, so
/// two different sequences of values never give the same words. Words are
/// gathered and hashed a large piece at a time: a hasher call per value
/// would cost more than the value.
struct BlockDigest: ~Copyable {
    private var hasher = SHA256Hasher()
    private var words: [UInt64] = []
    private static let flushAt = 1 << 13

    init() { words.reserveCapacity(Self.flushAt + 64) }

    /// A length-prefixed byte string; nil is NULL (not the empty string).
    mutating func append(_ bytes: ArraySlice<UInt8>?) {
        guard let bytes else {
            append(Int64(-1))
            return
        }
        append(Int64(bytes.count))
        var word: UInt64 = 0
        var shift: UInt64 = 0
        for byte in bytes {
            word |= UInt64(byte) << shift
            shift += 8
            if shift == 64 {
                words.append(word)
                word = 0
                shift = 0
            }
        }
        if shift > 0 { words.append(word) }
        flushIfFull()
    }

    mutating func append(_ text: String?) {
        guard let text else {
            append(nil as ArraySlice<UInt8>?)
            return
        }
        append(ArraySlice(text.utf8))
    }

    mutating func append(_ value: Int64) {
        append(word: UInt64(bitPattern: value))
    }

    mutating func append(word: UInt64) {
        words.append(word)
        if words.count >= Self.flushAt { flush() }
    }

    private mutating func flushIfFull() {
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
