/// A journal revision that was not rejected (SPEC §1.4: the highest revision
/// of an entry not after the as-of wins, ties to the last in file order).
struct JournalRevision: Sendable {
    /// The entry id's index (ids compare as bytes; one index per id).
    var entryKey: Int32
    var revision: Int64
    var deleted: Bool
    var entry: JournalEntry

    /// Whether this revision, read after `earlier` of the same entry,
    /// wins over it: a higher revision, or the same (ties to the later row).
    func beats(_ earlier: JournalRevision) -> Bool { revision >= earlier.revision }

    /// Per entry key (`entries` of them), the position in `revisions` of
    /// the winning one among those cooked by `asOf` (all when nil): the
    /// highest revision, ties to the last in file order; -1 for a key with none.
    /// (Ingest's choice and an as-of series' steps', `AsOfSteps`.)
    static func winners(_ revisions: [JournalRevision], entries: Int, asOf: Instant? = nil) -> [Int] {
        var winner = [Int](repeating: -1, count: entries)
        for (position, revision) in revisions.enumerated() {
            if let asOf, revision.entry.cookedAt.instant > asOf { continue }
            let key = Int(revision.entryKey)
            let current = winner[key]
            if current >= 0 && !revision.beats(revisions[current]) { continue }
            winner[key] = position
        }
        return winner
    }
}

/// Ingest's winning revision of each entry (`JournalRevision.winners`: a
/// position among the revisions, -1 for none). A whole reading's is an
/// array over every entry. A resumed reading's new revisions name few of
/// the kept entries, and an array over all of them cost a night on the
/// 1.1 GB drop 24 MB of fresh memory and a pass over the kept entries: its
/// winners are a dictionary of the entries its revisions name.
struct JournalWinners {
    private var dense: [Int]
    private var sparse: [Int: Int] = [:]
    private let isSparse: Bool

    /// The winners among `revisions` of `entries` entry keys.
    init(_ revisions: [JournalRevision], entries: Int, sparse: Bool) {
        isSparse = sparse
        guard sparse else {
            dense = JournalRevision.winners(revisions, entries: entries)
            return
        }
        dense = []
        for (position, revision) in revisions.enumerated() {
            let key = Int(revision.entryKey)
            if let current = self.sparse[key], !revision.beats(revisions[current]) { continue }
            self.sparse[key] = position
        }
    }

    subscript(key: Int) -> Int {
        get { isSparse ? sparse[key] ?? -1 : dense[key] }
        set {
            if isSparse {
                sparse[key] = newValue
            } else {
                dense[key] = newValue
            }
        }
    }

    /// The entry keys below `limit` that some revision wins, ascending.
    func won(below limit: Int) -> [Int] {
        isSparse
            ? sparse.filter { $0.key < limit && $0.value >= 0 }.map(\.key).sorted()
            : dense.indices.prefix(limit).filter { dense[$0] >= 0 }
    }
}
