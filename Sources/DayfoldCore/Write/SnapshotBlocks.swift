/// How a published snapshot laid out in blocks (`OutputTable.blockStarts`)
/// was written, as the state keeps it (`RunState.snapshotBlocks`): for each
/// block, what its rows were built from and the row groups it became.
///
/// Why: a nightly run whose block is built from the same facts (same
/// `digest`) writes the same row groups, so it copies them from the
/// published file instead of building, encoding and compressing them again
/// (issue 21; Decisions.md, "Nightly runs copy unchanged month blocks").
/// `written` guards the copy: the bytes and footer entries read back must
/// be those the run that wrote them recorded, or the block is encoded again.
public struct SnapshotBlocks: Sendable, Equatable {
    public struct Block: Sendable, Equatable {
        /// `BlockDigest` of the block's inputs.
        public var digest: String
        public var rows: Int
        /// How many row groups the block is, from the previous block's on.
        public var rowGroups: Int
        /// SHA-256 of the row groups as written (`SnapshotBlockWriter.writtenDigest`).
        public var written: String

        public init(digest: String, rows: Int, rowGroups: Int, written: String) {
            self.digest = digest
            self.rows = rows
            self.rowGroups = rowGroups
            self.written = written
        }
    }

    /// The published file (absolute).
    public var path: String
    public var blocks: [Block]

    public init(path: String, blocks: [Block]) {
        self.path = path
        self.blocks = blocks
    }
}
