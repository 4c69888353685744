import Foundation
import Testing

@testable import DayfoldCore

/// The relationship day table is written as a snapshot and as a report from
/// one build of each row group: both files must be, byte for byte, what the
/// separate writers make, across row groups and CSV chunks.
@Suite struct TableWritersTests {
    @Test(arguments: [0, 1, TableWriters.csvChunkRows + 3, TableWriters.rowGroupRows + 5])
    func oneBuildWritesWhatTheTwoWritersWrite(rows: Int) throws {
        let table = OutputTable(
            name: "t", rowCount: rows,
            columns: [
                OutputColumn("id", .string { "id-\($0)" }),
                OutputColumn("count", .int { Int64($0 % 7) }),
                OutputColumn("share", nullable: true, .double { $0 % 3 == 0 ? nil : Double($0) / 4 }),
                OutputColumn("day", .date { LocalDate(days: Int32($0 % 400)) }),
            ])
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
        let csv = try TableWriters.writeCSV(table, to: path("alone.csv"))
        let parquet = try TableWriters.writeParquet(table, to: path("alone.parquet"))
        let both = try TableWriters.writeParquetAndCSV(table, parquet: path("both.parquet"), csv: path("both.csv"))
        #expect(both.csv.rows == rows && both.parquet.rows == rows)
        #expect(both.csv.sha256 == csv.sha256 && both.parquet.sha256 == parquet.sha256)
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: path("both.csv")))
                == Data(contentsOf: URL(fileURLWithPath: path("alone.csv"))))
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: path("both.parquet")))
                == Data(contentsOf: URL(fileURLWithPath: path("alone.parquet"))))
        let lines = try String(contentsOfFile: path("both.csv"), encoding: .utf8).split(separator: "\n")
        #expect(lines.count == rows + 1)
    }
}
