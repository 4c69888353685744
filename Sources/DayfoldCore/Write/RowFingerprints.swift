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

    /// The two fingerprints of a few names, combined in order (a table of
    /// names or a relationship's details is fingerprinted once, then
    /// combined into each row as two words).
    static func pair(of values: [String?]) -> (UInt64, UInt64) {
        RowFingerprints(count: 1) { _, hash in
            for value in values { hash.combine(value) }
        }.pair(0)
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
