import Synchronization

/// What a whole run with `--state` does with the snapshots laid out in
/// blocks (issue 21; Decisions.md, "Nightly runs copy unchanged month
/// blocks"): which blocks of the previous outputs it may copy, where its
/// own files will be published, and each such snapshot's blocks as written
/// (for the next run's state), recorded as the writers finish side by side.
final class SnapshotBlockKeeping: Sendable {
    /// The state the run found, if it may be used.
    private let previous: RunState?
    /// The output's final folder.
    private let published: String
    private let written = Mutex<[String: (blocks: SnapshotBlocks, copied: Int)]>([:])

    init(previous: RunState?, published: String) {
        self.previous = previous
        self.published = published
    }

    /// Writes snapshot `name` of `table` (and its debug CSV) through
    /// `SnapshotBlockWriter` when its snapshot layout has block digests;
    /// nil when it has none (the caller writes it as any snapshot).
    func write(_ name: String, _ table: OutputTable, in staging: String, debug: Bool) throws -> (String, Int, String)? {
        let snapshot = table.asSnapshot
        guard snapshot.blockDigests != nil else { return nil }
        let written = try write(name, snapshot: snapshot, in: staging)
        if debug { try TableWriters.writeCSV(table, to: staging + "/debug/\(name).csv") }
        return written
    }

    /// Writes `snapshot` (a table in its snapshot layout, with block
    /// digests) as snapshot `name`, and records its blocks.
    func write(_ name: String, snapshot: OutputTable, in staging: String) throws -> (String, Int, String) {
        let relative = "snapshots/\(name).parquet"
        let result = try SnapshotBlockWriter.write(
            snapshot, to: staging + "/" + relative, published: published + "/" + relative,
            previous: previous?.copyableBlocks(of: name))
        written.withLock { $0[name] = (result.blocks, result.copied) }
        debugRSS("write: \(relative)")
        return (relative, result.rows, result.sha256)
    }

    /// Each snapshot's blocks as written, for the state.
    var recorded: [String: SnapshotBlocks] { written.withLock { $0.mapValues(\.blocks) } }

    /// The manifest's word on what was copied ("N of M month blocks of a,
    /// K of L of b were copied from the previous outputs"), or nil when
    /// nothing was.
    var copiedText: String? {
        let copies = written.withLock { $0 }.filter { $0.value.copied > 0 }.sorted { bytesLess($0.key, $1.key) }
        guard !copies.isEmpty else { return nil }
        let parts = copies.map { "\($0.value.copied) of \($0.value.blocks.blocks.count) month blocks of \($0.key)" }
        return parts.joined(separator: ", ") + " were copied from the previous outputs"
    }
}
