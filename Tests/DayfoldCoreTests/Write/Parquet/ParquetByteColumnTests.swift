import Foundation
import Testing

@testable import DayfoldCore

/// Byte-string columns are how dayfold's writers hand strings over; the file
/// must be exactly the one a column of Strings gives.
@Suite struct ParquetByteColumnTests {
    /// A row copied from a small column of repeated values (one per
    /// relationship) is that row's value: bytes, empty string or NULL.
    @Test func aRowCopiedFromAnotherColumnIsThatRowsValue() {
        let values: [String?] = ["rel-1", nil, "", "Zürich", "rel-22"]
        let source = ParquetByteColumn(values)
        var column = ParquetByteColumn()
        let picks = [3, 0, 1, 4, 2, 0, 1, 3]
        for row in picks { column.append(row: row, of: source) }
        #expect(column.strings == picks.map { values[$0] })
        #expect(column.nullCount == 2)
        #expect(column.bytes == Array("Zürichrel-1rel-22rel-1Zürich".utf8))
    }

    @Test func aByteColumnWritesTheSameFileAsStrings() throws {
        var random = ParquetTestRandom(state: 11)
        var values: [String?] = ["", "b", nil, "a", "Zürich", "日本", "zz", "\u{0}x"]
        for _ in 0..<5000 {
            let length = Int.random(in: 0...40, using: &random)
            values.append(
                Int.random(in: 0..<10, using: &random) == 0
                    ? nil
                    : String(
                        (0..<length).map { _ in Character(UnicodeScalar(UInt8.random(in: 0x20...0x7E, using: &random)))
                        }))
        }
        let fields = [ParquetField(name: "s", type: .string, nullable: true)]
        let directory = try ParquetTestDirectory()
        var column = ParquetByteColumn()
        for value in values {
            if let value { column.append(ArraySlice(Array(value.utf8))) } else { column.appendNull() }
        }
        #expect(column.strings == values)
        #expect(column.nullCount == values.filter { $0 == nil }.count)
        let fromStrings = try writeParquetFile(
            in: directory, name: "strings.parquet", fields: fields, groups: [[.string(values)]])
        let fromBytes = try writeParquetFile(
            in: directory, name: "bytes.parquet", fields: fields, groups: [[.utf8(column)]])
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: fromStrings)) == Data(contentsOf: URL(fileURLWithPath: fromBytes))
        )
    }

    @Test func statisticsOrderBytesUnsigned() {
        let column = ParquetByteColumn(["b", nil, "é", "a", "ab"])
        let statistics = ParquetColumnStatistics(of: .utf8(column))
        #expect(statistics.minBytes == Array("a".utf8))
        #expect(statistics.maxBytes == Array("é".utf8))
        #expect(statistics.nullCount == 1)
    }

    /// A run appended at once is the column its rows appended one by one
    /// would be: ends, NULL flags and bytes, for a NULL, an empty value and
    /// a run of one.
    @Test func aRunIsTheRowsAppendedOneByOne() {
        let values = ParquetByteColumn(["rel-a", nil, "", "zone/Europe"])
        var runs = ParquetByteColumn()
        var rows = ParquetByteColumn()
        for (row, count) in [(0, 3), (1, 2), (2, 4), (3, 1), (0, 0), (3, 5)] {
            runs.append(row: row, of: values, count: count)
            for _ in 0..<count { rows.append(row: row, of: values) }
        }
        runs.append("Asia/Kolkata", count: 3)
        for _ in 0..<3 { rows.append("Asia/Kolkata") }
        #expect(runs == rows)
        #expect(runs.count == 18)
        #expect(runs.nullCount == 2)
    }
}
