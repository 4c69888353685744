import Foundation
import Testing

@testable import DayfoldCore
@testable import DayfoldGenerate

/// Output tables are written as CSV column by column (`CSVCells`); the text
/// must be exactly what writing each row's values' descriptions through
/// `append(row:)` gives: quoting, the formula guard, NULLs, numbers, dates
/// and instants (fractions trimmed), for every column type.
@Suite struct CSVCellsTests {
    static let instants: [Int64?] = [
        1_772_409_600_000_000, nil, 1_772_409_600_250_000, 1_772_409_600_000_005, -1, 0, 253_402_300_799_999_999,
    ]
    static let fields = [
        ParquetField(name: "count", type: .int64, nullable: true),
        ParquetField(name: "at", type: .timestampMicros, nullable: true),
        ParquetField(name: "small", type: .int32, nullable: true),
        ParquetField(name: "day", type: .date, nullable: true),
        ParquetField(name: "score", type: .double, nullable: true),
        ParquetField(name: "late", type: .boolean, nullable: true),
        ParquetField(name: "text", type: .string, nullable: true),
        ParquetField(name: "bytes", type: .string, nullable: true),
    ]
    static let texts: [String?] = ["plain", "=SUM(A1)", nil, "a,b", "say \"hi\"", "-5", "@x"]

    static var columns: [ParquetColumnData] {
        [
            .int64([0, -42, nil, 9_007_199_254_740_993, Int64.min + 1, 7, 100]),
            .int64(instants),
            .int32([nil, 1, -1, Int32.max, 0, 12, 5]),
            .int32([20_513, -719_162, nil, 0, 2_932_896, 20_000, -1]),
            .double([1.5, -0.5, 3, nil, -2, 1e16, 0.1 + 0.2]),
            .boolean([true, false, nil, true, false, nil, true]),
            .string(texts),
            .utf8(ParquetByteColumn(texts)),
        ]
    }

    /// Each value's text as the row writer is given it.
    static func descriptions(_ row: Int) -> [String?] {
        columns.enumerated().map { position, column in
            switch column {
            case .int64(let values):
                return values[row].map {
                    fields[position].type == .timestampMicros ? Instant(micros: $0).description : String($0)
                }
            case .int32(let values):
                return values[row].map {
                    fields[position].type == .date ? LocalDate(days: $0).description : String($0)
                }
            case .double(let values): return values[row].map(formatNumber)
            case .boolean(let values): return values[row].map { $0 ? "true" : "false" }
            case .string(let values): return values[row]
            case .utf8: return texts[row]
            }
        }
    }

    func written(guardFormulas: Bool, _ write: (CSVReportWriter) throws -> Void) throws -> String {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("t.csv").path
        let writer = try CSVReportWriter(path: path, header: Self.fields.map(\.name), guardFormulas: guardFormulas)
        try write(writer)
        try writer.finish()
        return try String(contentsOfFile: path, encoding: .utf8)
    }

    @Test(arguments: [true, false])
    func chunksWriteWhatRowsOfDescriptionsWrite(guardFormulas: Bool) throws {
        let rows = Self.texts.count
        let byRow = try written(guardFormulas: guardFormulas) { writer in
            for row in 0..<rows { try writer.append(row: Self.descriptions(row)) }
        }
        let byChunk = try written(guardFormulas: guardFormulas) { writer in
            try writer.append(writer.cells(Self.columns, fields: Self.fields))
        }
        #expect(byChunk == byRow)
        // The cases that matter are really there: a guarded formula, a
        // trimmed fraction, an integral double written as an integer.
        #expect(byChunk.contains(guardFormulas ? "'=SUM(A1)" : ",=SUM(A1),"))
        #expect(byChunk.contains("2026-03-02T00:00:00.25Z"))
        #expect(byChunk.contains("2026-03-02T00:00:00.000005Z"))
        #expect(byChunk.contains(",-2,"))
    }

    /// Chunks of a longer row group (as `TableWriters.writeParquetAndCSV`
    /// formats them) write exactly the rows they cover, in order.
    @Test func chunksOfARowRangeWriteThoseRows() throws {
        let rows = Self.texts.count
        let whole = try written(guardFormulas: true) { writer in
            try writer.append(writer.cells(Self.columns, fields: Self.fields))
        }
        for cut in 0...rows {
            let inTwo = try written(guardFormulas: true) { writer in
                try writer.append(writer.cells(Self.columns, fields: Self.fields, rows: 0..<cut))
                try writer.append(writer.cells(Self.columns, fields: Self.fields, rows: cut..<rows))
            }
            #expect(inTwo == whole, "cut at \(cut)")
        }
        let middle = try written(guardFormulas: true) { writer in
            try writer.append(writer.cells(Self.columns, fields: Self.fields, rows: 2..<5))
        }
        let lines = whole.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(middle == ([lines[0]] + lines[3..<6]).joined(separator: "\n") + "\n")
    }

    @Test func instantTextIsItsDescription() {
        // Years 0000 to 9999: edge instants and random ones.
        let first: Int64 = -62_167_219_200_000_000
        let last: Int64 = 253_402_300_799_999_999
        var random = SplitMix64(seed: 7)
        var values = Self.instants.compactMap { $0 } + [first, last]
        for _ in 0..<2_000 {
            values.append(first + Int64(random.next() % UInt64(last - first)))
        }
        for micros in values {
            let instant = Instant(micros: micros)
            var bytes: [UInt8] = []
            #expect(instant.appendISOText(into: &bytes))
            #expect(String(decoding: bytes, as: UTF8.self) == instant.description)
        }
        // Outside those years the caller falls back to `description`.
        var outside: [UInt8] = []
        #expect(!Instant(micros: last + 1).appendISOText(into: &outside))
        #expect(outside.isEmpty)
    }
}
