import Foundation
import Testing

@testable import DayfoldCore

/// A snapshot written in blocks for a state (`SnapshotBlockWriter`): a block
/// the previous file holds unchanged is copied from it, and whatever is
/// copied, the file is byte for byte the one a fresh write makes; a block
/// whose rows changed, or whose bytes in the previous file are not the ones
/// recorded, is encoded again.
@Suite struct SnapshotBlockWriterTests {
    /// Three blocks: rows 0..<5, 5..<9 and a block longer than a row group
    /// (9..<9 + rowGroupRows + 10, two row groups).
    static let blockStarts = [0, 5, 9]
    static let rowCount = 9 + TableWriters.rowGroupRows + 10

    /// A two-column table of `values` (x, and x's name) in `blockStarts`'
    /// blocks, its digest read from the values alone.
    static func table(_ values: [Int64]) -> OutputTable {
        var table = OutputTable(
            name: "t", rowCount: values.count,
            fields: [
                ParquetField(name: "x", type: .int64, nullable: false),
                ParquetField(name: "name", type: .string, nullable: true),
            ]
        ) { range in
            var names = ParquetByteColumn()
            for row in range {
                if values[row] % 7 == 0 { names.appendNull() } else { names.append("v\(values[row] % 100)") }
            }
            return [.int64(range.map { values[$0] }), .utf8(names)]
        }
        table.blockStarts = blockStarts
        table.blockDigests = { ranges in
            ranges.map { range in
                var digest = BlockDigest()
                for row in range { digest.append(values[row]) }
                return digest.finalize()
            }
        }
        return table
    }

    static let values = (0..<rowCount).map { Int64($0 * 3) }

    /// Writes `values` to `name` in `root` with `previous`; returns what was written and the file's bytes.
    static func write(
        _ values: [Int64], _ name: String, in root: URL, previous: SnapshotBlocks?
    ) throws -> (written: SnapshotBlockWriter.Written, bytes: Data) {
        let path = root.appendingPathComponent(name).path
        let written = try SnapshotBlockWriter.write(table(values), to: path, published: path, previous: previous)
        return (written, try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    @Test func anUnchangedTableIsCopiedWholeAndIsTheFileAFreshWriteMakes() throws {
        let root = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let first = try Self.write(Self.values, "first.parquet", in: root, previous: nil)
        #expect(first.written.copied == 0)
        #expect(first.written.blocks.blocks.map(\.rows) == [5, 4, TableWriters.rowGroupRows + 10])
        #expect(first.written.blocks.blocks.map(\.rowGroups) == [1, 1, 2])
        // The plain writer's file: the blocks change nothing of the bytes.
        let plain = root.appendingPathComponent("plain.parquet").path
        try TableWriters.writeParquet(Self.table(Self.values), to: plain)
        #expect(try Data(contentsOf: URL(fileURLWithPath: plain)) == first.bytes)
        let second = try Self.write(Self.values, "second.parquet", in: root, previous: first.written.blocks)
        #expect(second.written.copied == 3)
        #expect(second.bytes == first.bytes)
        #expect(second.written.sha256 == first.written.sha256)
        #expect(second.written.blocks.blocks == first.written.blocks.blocks)
    }

    @Test func aBlockWhoseRowsChangedIsEncodedAgain() throws {
        let root = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let first = try Self.write(Self.values, "first.parquet", in: root, previous: nil)
        var changed = Self.values
        changed[6] = 1_000_001  // block 1
        let fresh = try Self.write(changed, "fresh.parquet", in: root, previous: nil)
        let next = try Self.write(changed, "next.parquet", in: root, previous: first.written.blocks)
        #expect(next.written.copied == 2)
        #expect(next.bytes == fresh.bytes)
        #expect(next.bytes != first.bytes)
    }

    /// The recorded bytes are checked, not trusted: one byte changed in the
    /// first row group makes its block encoded again; a file that is gone
    /// copies nothing. Either way the file is the fresh one.
    @Test func aPreviousFileChangedSinceOrGoneIsNotCopiedFrom() throws {
        let root = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let first = try Self.write(Self.values, "first.parquet", in: root, previous: nil)
        let path = root.appendingPathComponent("first.parquet")
        var edited = first.bytes
        edited[24] ^= 0x01  // inside block 0's first chunk (after the 4-byte magic)
        try edited.write(to: path)
        let next = try Self.write(Self.values, "next.parquet", in: root, previous: first.written.blocks)
        #expect(next.written.copied == 2)
        #expect(next.bytes == first.bytes)
        try FileManager.default.removeItem(at: path)
        let again = try Self.write(Self.values, "again.parquet", in: root, previous: first.written.blocks)
        #expect(again.written.copied == 0)
        #expect(again.bytes == first.bytes)
    }

    /// An empty table is one empty block: nothing to copy, and the file a fresh write makes.
    @Test func anEmptyTableIsOneEmptyBlock() throws {
        let root = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        var table = Self.table([])
        table.blockStarts = [0]
        let path = root.appendingPathComponent("empty.parquet").path
        let written = try SnapshotBlockWriter.write(table, to: path, published: path, previous: nil)
        #expect(written.rows == 0 && written.blocks.blocks.count == 1 && written.blocks.blocks[0].rowGroups == 0)
        let plain = root.appendingPathComponent("plain.parquet").path
        try TableWriters.writeParquet(table, to: plain)
        #expect(try Data(contentsOf: URL(fileURLWithPath: plain)) == Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// A column with one value on every row that changes between runs
    /// (`as_of`): left out of the digests, encoded again on a copy, so every
    /// block is copied and the file is still the fresh one.
    @Test func aConstantColumnIsEncodedAgainOnACopy() throws {
        let root = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        func table(_ constant: Int64) -> OutputTable {
            let base = Self.table(Self.values)
            var table = OutputTable(
                name: "t", rowCount: base.rowCount,
                fields: base.fields + [ParquetField(name: "as_of", type: .int64, nullable: false)]
            ) { range in
                base.rowGroup(range) + [.int64(range.map { _ in constant })]
            }
            table.blockStarts = base.blockStarts
            table.blockDigests = base.blockDigests
            table.encodedOnCopy = OutputTable.EncodedOnCopy(column: 2) { rows in
                .int64([Int64?](repeating: constant, count: rows))
            }
            return table
        }
        func write(_ constant: Int64, _ name: String, previous: SnapshotBlocks?) throws -> (
            SnapshotBlockWriter.Written, Data
        ) {
            let path = root.appendingPathComponent(name).path
            let written = try SnapshotBlockWriter.write(table(constant), to: path, published: path, previous: previous)
            return (written, try Data(contentsOf: URL(fileURLWithPath: path)))
        }
        let (first, _) = try write(1, "first.parquet", previous: nil)
        let (fresh, freshBytes) = try write(2, "fresh.parquet", previous: nil)
        let (next, nextBytes) = try write(2, "next.parquet", previous: first.blocks)
        #expect(next.copied == 3)
        #expect(nextBytes == freshBytes)
        #expect(next.blocks.blocks == fresh.blocks.blocks)
    }
}
