/// A journal revision that was not rejected (SPEC §1.4: the highest revision
/// of an entry not after the as-of wins, ties to the last in file order).
struct JournalRevision: Sendable {
    /// The entry id's index (ids compare as bytes; one index per id).
    var entryKey: Int32
    var revision: Int64
    var deleted: Bool
    var entry: JournalEntry

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
            if current >= 0 && revisions[current].revision > revision.revision { continue }
            winner[key] = position
        }
        return winner
    }
}
