import Dispatch
import Foundation

/// Writes an `OutputTable` as a CSV report or as a Parquet snapshot
/// (row groups of a bounded number of rows, so memory stays flat).
enum TableWriters {
    static let rowGroupRows = 1 << 17
    /// CSV is written from typed columns made this many rows at a time.
    static let csvChunkRows = 1 << 14

    /// Returns the number of data rows written and the SHA-256 of the bytes
    /// written (taken as they are written: the manifest's digest needs no
    /// reading back).
    @discardableResult
    static func writeCSV(
        _ table: OutputTable, to path: String, guardFormulas: Bool = true
    ) throws -> (rows: Int, sha256: String) {
        let writer = try CSVReportWriter(path: path, header: table.header, guardFormulas: guardFormulas)
        for start in stride(from: 0, to: table.rowCount, by: csvChunkRows) {
            let columns = table.rowGroup(start..<min(start + csvChunkRows, table.rowCount))
            try writer.append(writer.cells(columns, fields: table.fields))
        }
        try writer.finish()
        return (writer.rows, writer.sha256 ?? "")
    }

    /// Row groups are built (rows → typed columns) one ahead on another
    /// core while the current one is encoded, compressed and written: for the
    /// largest table, which otherwise finishes alone, that is most of its time.
    /// At most two row groups are in memory.
    /// Returns the number of data rows written and the SHA-256 of the bytes written.
    @discardableResult
    static func writeParquet(_ table: OutputTable, to path: String) throws -> (rows: Int, sha256: String) {
        let writer = try ParquetFileWriter(path: path, fields: table.fields)
        let ranges = stride(from: 0, to: table.rowCount, by: rowGroupRows).map {
            $0..<min($0 + rowGroupRows, table.rowCount)
        }
        let shared = SharedTable(table: table)
        func build(_ rows: Range<Int>) -> BackgroundValue<[ParquetColumnData]> {
            BackgroundValue { shared.table.rowGroup(rows) }
        }
        var next = ranges.first.map(build)
        for index in ranges.indices {
            guard let current = next else { break }
            next = index + 1 < ranges.count ? build(ranges[index + 1]) : nil
            try writer.writeRowGroup(current.value())
        }
        if table.rowCount == 0 { try writer.writeRowGroup(table.rowGroup(0..<0)) }
        try writer.close()
        return (table.rowCount, writer.sha256 ?? "")
    }
}

/// A table whose row groups are built on another thread: its `rowGroup`
/// closure only reads the run's immutable results.
private final class SharedTable: @unchecked Sendable {
    let table: OutputTable
    init(table: OutputTable) { self.table = table }
}
