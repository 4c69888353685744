import Foundation
import Testing

@testable import DayfoldCore

/// A column's `repeated` runs are a hint that lets the writer read a run's
/// value once: every result read through it is the row-by-row result.
@Suite struct ParquetRepeatedRunsTests {
    /// A seeded column of runs (ids over days, a relationship of one day,
    /// NULLs and empty values between them), built run-wise, and the same
    /// values built row by row (no hint).
    private func columns(seed: UInt64) -> (runWise: ParquetByteColumn, rowWise: ParquetByteColumn) {
        var random = ParquetTestRandom(state: seed)
        var runWise = ParquetByteColumn()
        var rowWise = ParquetByteColumn()
        for _ in 0..<Int(random.next() % 40) {
            let count = Int(random.next() % 30)
            switch random.next() % 5 {
            case 0:
                runWise.appendNull()
                rowWise.appendNull()
            case 1:
                runWise.append("", count: count)
                for _ in 0..<count { rowWise.append("") }
            default:
                let value = "rel-" + String(repeating: "x", count: Int(random.next() % 20)) + "\(random.next() % 7)"
                runWise.append(value, count: count)
                for _ in 0..<count { rowWise.append(value) }
            }
        }
        return (runWise, rowWise)
    }

    @Test func runsAreRecordedByTheRunWiseAppendsOnly() {
        var column = ParquetByteColumn()
        column.append("a", count: 3)
        column.append("b")
        column.append("c", count: 1)
        column.appendNull()
        column.append("d", count: 2)
        #expect(column.repeated == [0..<3, 6..<8])
        let joined = column.appending(column)
        #expect(joined.repeated == [0..<3, 6..<8, 8..<11, 14..<16])
        #expect(joined.strings == column.strings + column.strings)
        column.removeAll()
        #expect(column.repeated.isEmpty)
    }

    /// `appendRuns` (how every String column of an output table is built)
    /// finds the runs of equal neighbours itself: the values are those
    /// appended one by one, and each run of two or more rows is recorded,
    /// NULL runs aside. Hand-made: a a a · b · NULL NULL · c c · "" "" · a.
    @Test func appendRunsRecordsTheRunsOfEqualNeighbours() {
        let values: [String?] = ["a", "a", "a", "b", nil, nil, "c", "c", "", "", "a"]
        var column = ParquetByteColumn()
        column.append("x")
        column.appendRuns(0..<values.count) { values[$0] }
        #expect(column.strings == ["x"] + values)
        #expect(column.nullCount == 2)
        #expect(column.repeated == [1..<4, 7..<9, 9..<11])
        var empty = ParquetByteColumn()
        empty.appendRuns(0..<0) { _ in "never" }
        #expect(empty.count == 0 && empty.repeated.isEmpty)
        // Seeded columns of runs: the same bytes as appended row by row.
        for seed in 1...20 {
            let rowWise = columns(seed: UInt64(seed)).rowWise
            let strings = rowWise.strings
            var found = ParquetByteColumn()
            found.appendRuns(0..<strings.count) { strings[$0] }
            #expect(found == rowWise && found.nullCount == rowWise.nullCount)
        }
    }

    @Test func equalityIsTheValuesNotTheHint() {
        for seed in 1...20 {
            let (runWise, rowWise) = columns(seed: UInt64(seed))
            #expect(runWise == rowWise)
            #expect(rowWise.repeated.isEmpty)
        }
    }

    @Test func extremesReadThroughRunsAreTheRowByRowExtremes() {
        for seed in 1...200 {
            let (runWise, rowWise) = columns(seed: UInt64(seed))
            let fast = byteStringExtremes(
                bytes: runWise.bytes, ends: runWise.ends, nulls: runWise.nulls, repeated: runWise.repeated)
            let slow = byteStringExtremes(bytes: rowWise.bytes, ends: rowWise.ends, nulls: rowWise.nulls)
            #expect(fast.map { Array(runWise.bytes[$0.min]) } == slow.map { Array(rowWise.bytes[$0.min]) })
            #expect(fast.map { Array(runWise.bytes[$0.max]) } == slow.map { Array(rowWise.bytes[$0.max]) })
        }
    }

    /// Pages may start and end inside a run; every slice of rows encodes as
    /// the row-by-row column's does.
    @Test func plainBytesOfAnyRowsAreTheRowByRowBytes() {
        for seed in 1...60 {
            let (runWise, rowWise) = columns(seed: UInt64(seed))
            var random = ParquetTestRandom(state: UInt64(seed) * 31)
            for _ in 0..<10 {
                let lower = runWise.count == 0 ? 0 : Int(random.next() % UInt64(runWise.count + 1))
                let upper = lower + Int(random.next() % UInt64(runWise.count - lower + 1))
                var fast: [UInt8] = [0xEE]
                var slow: [UInt8] = [0xEE]
                ByteCopy.appendLengthPrefixed(runWise, rows: lower..<upper, into: &fast)
                ByteCopy.appendLengthPrefixed(rowWise, rows: lower..<upper, into: &slow)
                #expect(fast == slow, "rows \(lower)..<\(upper) of seed \(seed)")
            }
        }
    }

    @Test func pagesSplitInsideRunsWhereRowByRowTheyWould() {
        for seed in 1...60 {
            let (runWise, rowWise) = columns(seed: UInt64(seed))
            for limit in [8, 50, 64, 333, 1 << 20] {
                let writer = ParquetColumnChunkWriter(pageSizeLimit: limit)
                for nullable in [false, true] where nullable || runWise.nullCount == 0 {
                    #expect(
                        writer.pageRanges(.utf8(runWise), nullable: nullable)
                            == writer.pageRanges(.utf8(rowWise), nullable: nullable))
                }
            }
        }
    }

    /// The file a run-wise column writes is byte for byte the row-by-row
    /// column's (what a partitioned merge, which reads rows back, writes).
    @Test func aRunWiseColumnWritesTheRowByRowFile() throws {
        let directory = try ParquetTestDirectory()
        let field = ParquetField(name: "relationship_id", type: .string, nullable: true)
        for seed in [3, 17, 42] {
            let (runWise, rowWise) = columns(seed: UInt64(seed))
            let fastPath = directory.path("fast-\(seed).parquet")
            let slowPath = directory.path("slow-\(seed).parquet")
            for (path, column) in [(fastPath, runWise), (slowPath, rowWise)] {
                let writer = try ParquetFileWriter(path: path, fields: [field], pageSizeLimit: 100)
                try writer.writeRowGroup([.utf8(column)])
                try writer.writeRowGroup([.utf8(column.appending(column))])
                try writer.close()
            }
            #expect(
                try Data(contentsOf: URL(fileURLWithPath: fastPath)) == Data(contentsOf: URL(fileURLWithPath: slowPath))
            )
        }
    }
}
