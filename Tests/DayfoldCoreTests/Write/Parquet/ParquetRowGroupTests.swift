import Foundation
import Testing

@testable import DayfoldCore
@testable import DayfoldGenerate

@Suite struct ParquetRowGroupTests {
    @Test func rowGroupsAreRecordedInOrder() throws {
        let directory = try ParquetTestDirectory()
        let fields = [
            ParquetField(name: "day", type: .date, nullable: false),
            ParquetField(name: "note", type: .string, nullable: true),
        ]
        let groups: [[ParquetColumnData]] = [
            [.int32([1, 2, 3]), .string(["a", nil, "c"])],
            [.int32([4]), .string([nil])],
            [.int32([5, 6]), .string(["e", "f"])],
        ]
        let path = try writeParquetFile(in: directory, fields: fields, groups: groups)
        let info = try ParquetFileInfo.read(path: path)
        #expect(info.rowCount == 6)
        #expect(info.rowGroups.map(\.rows) == [3, 1, 2])
        #expect(info.rowGroups.allSatisfy { $0.bytes > 0 && $0.uncompressedBytes > 0 })
        let columns = try info.readColumns(path: path, limit: 6)
        #expect(columns == [.int32([1, 2, 3, 4, 5, 6]), .string(["a", nil, "c", nil, "e", "f"])])
    }

    @Test func emptyRowGroupsAreSkipped() throws {
        let directory = try ParquetTestDirectory()
        let fields = [ParquetField(name: "n", type: .int64, nullable: true)]
        let path = try writeParquetFile(
            in: directory, fields: fields, groups: [[.int64([])], [.int64([nil, 1])], [.int64([])]])
        let info = try ParquetFileInfo.read(path: path)
        #expect(info.rowGroups.map(\.rows) == [2])
    }

    /// The writer streams: a row group's bytes reach the file once they
    /// pass the output buffer (1 MiB, `OutputFile`), not at the close. The
    /// values are random, so each group's 1.6 MB does not compress below it.
    @Test func rowGroupBytesReachTheFileBeforeClose() throws {
        let directory = try ParquetTestDirectory()
        let path = directory.path("streaming.parquet")
        let writer = try ParquetFileWriter(path: path, fields: [ParquetField(name: "n", type: .int64, nullable: false)])
        var generator = SplitMix64(seed: 3)
        func randomGroup() -> ParquetColumnData {
            .int64((0..<200_000).map { _ in Int64(bitPattern: generator.next()) })
        }
        try writer.writeRowGroup([randomGroup()])
        let afterFirst = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
        try writer.writeRowGroup([randomGroup()])
        let afterSecond = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
        #expect(afterFirst > 4)
        #expect(afterSecond > afterFirst)
        try writer.close()
        #expect(try ParquetFileInfo.read(path: path).rowCount == 400_000)
    }

    @Test func pagesSplitNearTheSizeLimit() {
        let writer = ParquetColumnChunkWriter(pageSizeLimit: 1 << 20)
        // 300,000 INT64 values = 2.4 MB: three pages of 131,072 values at most.
        let ranges = writer.pageRanges(.int64((0..<300_000).map { Int64($0) }), nullable: false)
        #expect(ranges.map(\.count) == [131_072, 131_072, 37_856])
        #expect(writer.pageRanges(.string([]), nullable: true) == [0..<0])
    }

    /// The split as first written: value and level bits added row by row.
    private func rowByRowPages(_ column: ParquetColumnData, nullable: Bool, limit: Int) -> [Range<Int>] {
        func bits(_ row: Int) -> Int {
            switch column {
            case .boolean(let values): values[row] == nil ? 0 : 1
            case .int32(let values): values[row] == nil ? 0 : 32
            case .int64(let values): values[row] == nil ? 0 : 64
            case .double(let values): values[row] == nil ? 0 : 64
            case .string(let values): values[row].map { 32 + 8 * $0.utf8.count } ?? 0
            case .utf8(let strings): strings.nulls[row] ? 0 : 32 + 8 * strings.range(row).count
            }
        }
        var ranges: [Range<Int>] = []
        var (start, total) = (0, 0)
        for row in 0..<column.count {
            total += bits(row) + (nullable ? 1 : 0)
            if total >= limit * 8 {
                ranges.append(start..<row + 1)
                (start, total) = (row + 1, 0)
            }
        }
        if start < column.count || ranges.isEmpty { ranges.append(start..<column.count) }
        return ranges
    }

    /// One page, or fixed-width pages without NULLs, are decided without a
    /// pass over the rows: the pages are the row-by-row split's all the same.
    @Test func pagesAreTheRowByRowSplitWhicheverWayTheyAreFound() {
        var random = ParquetTestRandom(state: 11)
        for rows in [0, 1, 63, 64, 65, 200, 1_000] {
            for nullEvery in [0, 1, 3] {
                func isNull(_ row: Int) -> Bool { nullEvery == 1 || (nullEvery > 1 && row % nullEvery == 0) }
                let text = (0..<rows).map { isNull($0) ? nil : String(repeating: "x", count: Int(random.next() % 9)) }
                let columns: [ParquetColumnData] = [
                    .boolean((0..<rows).map { isNull($0) ? nil : $0 % 2 == 0 }),
                    .int32((0..<rows).map { isNull($0) ? nil : Int32($0) }),
                    .int64((0..<rows).map { isNull($0) ? nil : Int64($0) }),
                    .double((0..<rows).map { isNull($0) ? nil : Double($0) }),
                    .string(text),
                    .utf8(ParquetByteColumn(text)),
                ]
                for column in columns {
                    for limit in [8, 64, 100, 512, 1 << 20] {
                        let writer = ParquetColumnChunkWriter(pageSizeLimit: limit)
                        for nullable in nullEvery == 0 ? [false, true] : [true] {
                            let expected = rowByRowPages(column, nullable: nullable, limit: limit)
                            #expect(writer.pageRanges(column, nullable: nullable) == expected)
                            #expect(
                                writer.pageRanges(column, nullable: nullable, nullCount: column.nullCount) == expected)
                        }
                    }
                }
            }
        }
    }
}
