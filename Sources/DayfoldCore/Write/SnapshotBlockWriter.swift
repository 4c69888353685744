import Foundation

/// Writes a snapshot laid out in blocks (`OutputTable.blockStarts`, with a
/// `blockDigests`) and records its blocks for the next run
/// (`SnapshotBlocks`); a block whose digest the previous run's file holds
/// is copied from that file rather than built, encoded and compressed.
///
/// Why the copy is the same file a fresh write makes: a row group's chunks
/// and footer entries are a function of its rows alone (their offsets are
/// set where they land, `ParquetFileWriter.writeRowGroup(encoded:)`), a
/// block's rows are a function of what `blockDigests` reads, and a block is
/// cut into row groups from its own first row. The state that holds the
/// digests is trusted only by the build that wrote it (`RunState.build`),
/// and the bytes read back must be those recorded (`Block.written`), so a
/// file edited or replaced since is encoded again, never copied.
enum SnapshotBlockWriter {
    struct Written: Sendable {
        var rows: Int
        var sha256: String
        var blocks: SnapshotBlocks
        /// How many blocks were copied from the previous file.
        var copied: Int
    }

    /// Writes `table` (in its snapshot layout) to `path`; `published` is
    /// where the file will be once published (what the next run reads).
    static func write(
        _ table: OutputTable, to path: String, published: String, previous: SnapshotBlocks?
    ) throws -> Written {
        guard let blockDigests = table.blockDigests else {
            throw ParquetError(
                .invalidArgument, path: path, operation: "write blocks", detail: "\(table.name) has no block digest")
        }
        let starts = table.blockStarts
        let blockRanges = starts.indices.map { starts[$0]..<($0 + 1 < starts.count ? starts[$0 + 1] : table.rowCount) }
        let digests = blockDigests(blockRanges)
        guard digests.count == blockRanges.count else {
            throw ParquetError(
                .invalidArgument, path: path, operation: "write blocks",
                detail: "\(digests.count) digests for \(blockRanges.count) blocks")
        }
        let fresh = table.encodedOnCopy
        let leftOut = fresh?.column
        let old = previous.flatMap { PreviousSnapshot($0, fields: table.fields, leavingOut: leftOut) }
        // A block the old file holds is read, checked and copied when its
        // turn comes (one block's row groups in memory at a time); the
        // others' row groups are built one ahead on another core, as
        // `TableWriters` builds them.
        let copies = blockRanges.indices.map { old?.holds(digest: digests[$0], rows: blockRanges[$0].count) ?? false }
        func groupRanges(_ block: Range<Int>) -> [Range<Int>] {
            stride(from: block.lowerBound, to: block.upperBound, by: TableWriters.rowGroupRows).map {
                $0..<min($0 + TableWriters.rowGroupRows, block.upperBound)
            }
        }
        let encodes = blockRanges.indices.filter { !copies[$0] }.flatMap { groupRanges(blockRanges[$0]) }
        func build(_ position: Int) -> BackgroundValue<[ParquetColumnData]>? {
            guard position < encodes.count else { return nil }
            let rows = encodes[position]
            return BackgroundValue { table.rowGroup(rows) }
        }
        var nextEncode = 0
        var ahead = build(0)
        let writer = try ParquetFileWriter(path: path, fields: table.fields)
        var groupDigests = [[String]](repeating: [], count: blockRanges.count)
        var copied = 0
        func write(_ group: ParquetEncodedRowGroup, block: Int) throws {
            try writer.writeRowGroup(encoded: group)
            groupDigests[block].append(writtenDigest(group, leavingOut: leftOut))
        }
        for (block, range) in blockRanges.enumerated() {
            if copies[block] {
                if let groups = old?.groups(digest: digests[block], rows: range.count) {
                    for group in groups {
                        try write(fresh.map { try reencoded(group, $0, writer) } ?? group, block: block)
                    }
                    copied += 1
                } else {
                    // Not what was recorded (the file changed since): built here, as a full run builds it.
                    for rows in groupRanges(range) {
                        if let group = try writer.encodeRowGroup(table.rowGroup(rows)) {
                            try write(group, block: block)
                        }
                    }
                }
                continue
            }
            for _ in groupRanges(range) {
                guard let built = ahead else { break }
                nextEncode += 1
                ahead = build(nextEncode)
                if let group = try writer.encodeRowGroup(built.value()) { try write(group, block: block) }
            }
        }
        try writer.close()
        let blocks = blockRanges.indices.map { block in
            SnapshotBlocks.Block(
                digest: digests[block], rows: blockRanges[block].count, rowGroups: groupDigests[block].count,
                written: SHA256Hasher.hex(groupDigests[block].joined()))
        }
        return Written(
            rows: table.rowCount, sha256: writer.sha256 ?? "",
            blocks: SnapshotBlocks(path: published, blocks: blocks), copied: copied)
    }

    /// `group` with column `fresh.column`'s chunk encoded again from `fresh.data`.
    private static func reencoded(
        _ group: ParquetEncodedRowGroup, _ fresh: OutputTable.EncodedOnCopy, _ writer: ParquetFileWriter
    ) throws -> ParquetEncodedRowGroup {
        var group = group
        group.chunks[fresh.column] = try writer.encodeChunk(fresh.data(group.rowCount), field: fresh.column)
        return group
    }

    /// The SHA-256 of a row group as it stands in a file, wherever it lands:
    /// its row count, and each chunk's footer entry (its offset left out)
    /// and bytes; but for column `leavingOut` (`OutputTable.encodedOnCopy`),
    /// whose chunk a copy encodes again.
    static func writtenDigest(_ group: ParquetEncodedRowGroup, leavingOut: Int? = nil) -> String {
        var hasher = SHA256Hasher()
        var head = ThriftCompactWriter()
        head.writeI64(field: 1, Int64(group.rowCount))
        hasher.update(head.bytes)
        for (column, chunk) in group.chunks.enumerated() where column != leavingOut {
            var metadata = chunk.metadata
            metadata.dataPageOffset = 0
            var thrift = ThriftCompactWriter()
            thrift.writeStructValue { metadata.write(to: &$0) }
            hasher.update(thrift.bytes)
            var length = ThriftCompactWriter()
            length.writeI64(field: 1, Int64(chunk.bytes.count))
            hasher.update(length.bytes)
            hasher.update(chunk.bytes)
        }
        return hasher.finalizeHex()
    }

    /// The previous run's published file and its blocks: where each block's
    /// row groups are, read back and checked on request.
    private struct PreviousSnapshot {
        let reader: ParquetFileReader
        let rowGroups: [ParquetRowGroupMetadata]
        /// The column left out of the written digests (`OutputTable.encodedOnCopy`).
        let leavingOut: Int?
        /// The blocks by digest: the block, and its first row group.
        let blocks: [String: (block: SnapshotBlocks.Block, firstGroup: Int)]

        /// nil when the file is gone, unreadable, of other fields, or not
        /// the row groups the record describes: nothing is copied then.
        init?(_ previous: SnapshotBlocks, fields: [ParquetField], leavingOut: Int?) {
            guard let info = try? ParquetFileInfo.readTyped(path: previous.path), info.fields == fields,
                let reader = try? ParquetFileReader(path: previous.path)
            else { return nil }
            let groups = info.metadata.rowGroups
            guard previous.blocks.reduce(0, { $0 + $1.rowGroups }) == groups.count else { return nil }
            var blocks: [String: (SnapshotBlocks.Block, Int)] = [:]
            var first = 0
            for block in previous.blocks {
                blocks[block.digest] = (block, first)
                first += block.rowGroups
            }
            self.reader = reader
            self.leavingOut = leavingOut
            rowGroups = groups
            self.blocks = blocks
        }

        /// Whether the file holds a block with `digest` and `rows` rows (as
        /// recorded: its bytes are read and checked by `groups`).
        func holds(digest: String, rows: Int) -> Bool {
            guard let (block, _) = blocks[digest] else { return false }
            return block.rows == rows && block.rowGroups > 0
        }

        /// The row groups of the block with `digest` and `rows` rows, read
        /// from the file; nil when there is none, or when what is read is
        /// not what was written.
        func groups(digest: String, rows: Int) -> [ParquetEncodedRowGroup]? {
            guard let (block, first) = blocks[digest], block.rows == rows, block.rowGroups > 0 else { return nil }
            var groups: [ParquetEncodedRowGroup] = []
            var digests: [String] = []
            for metadata in rowGroups[first..<(first + block.rowGroups)] {
                var chunks: [ParquetEncodedRowGroup.Chunk] = []
                for column in metadata.columns {
                    guard let count = Int(exactly: column.totalCompressedSize),
                        let bytes = try? reader.read(offset: column.dataPageOffset, count: count)
                    else { return nil }
                    chunks.append(ParquetEncodedRowGroup.Chunk(bytes: bytes, metadata: column))
                }
                let group = ParquetEncodedRowGroup(rowCount: Int(metadata.rowCount), chunks: chunks)
                digests.append(SnapshotBlockWriter.writtenDigest(group, leavingOut: leavingOut))
                groups.append(group)
            }
            guard groups.reduce(0, { $0 + $1.rowCount }) == rows, SHA256Hasher.hex(digests.joined()) == block.written
            else { return nil }
            return groups
        }
    }
}
