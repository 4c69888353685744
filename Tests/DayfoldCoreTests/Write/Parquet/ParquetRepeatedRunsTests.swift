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
