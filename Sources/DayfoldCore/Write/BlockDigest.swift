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

/// A 128-bit fingerprint of each row of a table (two 64-bit `Fingerprint`s
/// of independent seeds) of everything the row is built from, found in one
/// pass in the order the facts lie in memory; a block's digest is then the
/// SHA-256 of its rows' fingerprints in the block's order (`digest(of:)`).
///
/// Why not hash each block's values in the block's row order: that order
/// is not the facts' (a snapshot's rows are sorted), so every value read was
/// a cache miss, several per row (0.44 s of CPU for `adherence_events` on
/// the 1.1 GB drop, against 0.08 s this way).
struct RowFingerprints: Sendable {
    /// `words[2 i]` and `words[2 i + 1]` are row `i`'s.
    private var words: [UInt64]

    /// `fill(i, &hash)` combines row `i`'s values into `hash`; it is called
    /// twice per row (once per seed) and must combine the same values both times.
    init(count: Int, _ fill: (Int, inout Fingerprint) -> Void) {
        words = [UInt64](repeating: 0, count: 2 * count)
        for row in 0..<count {
            var first = Fingerprint()
            var second = Fingerprint()
            second.combine(UInt64(0x5EED_0FB1_0CD1_6E00))
            fill(row, &first)
            fill(row, &second)
            words[2 * row] = first.value
            words[2 * row + 1] = second.value
        }
    }

    /// Row `row`'s two fingerprints.
    func pair(_ row: Int) -> (UInt64, UInt64) { (words[2 * row], words[2 * row + 1]) }

    /// The `BlockDigest` of rows `rows`, in that order: their count, then each one's fingerprint.
    func digest(of rows: some Collection<Int>) -> String {
        var digest = BlockDigest()
        digest.append(Int64(rows.count))
        for row in rows {
            digest.append(word: words[2 * row])
            digest.append(word: words[2 * row + 1])
        }
        return digest.finalize()
    }

    /// Each block's digest (`digest(of:)`), side by side.
    func digests<Rows: Collection<Int> & Sendable>(of blocks: [Rows]) -> [String] {
        let fingerprints = self
        return (try? ParallelJobs(blocks.map { rows in { fingerprints.digest(of: rows) } }).run()) ?? []
    }
}
