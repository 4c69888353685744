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
    /// `readBack`: a file the run reads again (see `CSVReportWriter`).
    static func writeCSV(
        _ table: OutputTable, to path: String, guardFormulas: Bool = true, readBack: Bool = false
    ) throws -> (rows: Int, sha256: String) {
        let writer = try CSVReportWriter(
            path: path, header: table.header, guardFormulas: guardFormulas, readBack: readBack)
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
    /// `observe` sees each row group once written (the HTML report's collector).
    @discardableResult
    /// The snapshot is written in `table.asSnapshot`'s order and blocks.
    static func writeParquet(
        _ table: OutputTable, to path: String, observe: (@Sendable ([ParquetColumnData]) -> Void)? = nil
    ) throws -> (rows: Int, sha256: String) {
        try writeParquet(table.asSnapshot, to: path) { observe?($0) }
    }

    /// Writes `table` both as a Parquet snapshot and as a CSV report, from
    /// one build of each row group when the two have one order: the two
    /// files are exactly what `writeParquet` and `writeCSV` write, and the
    /// columns are made once instead of twice. Returns each file's rows and SHA-256.
    /// `blocks`: for a snapshot in another order than the report's, what
    /// writes it in its blocks (a run with a state, `SnapshotBlockKeeping`);
    /// nil: written as `writeParquet` writes it.
    static func writeParquetAndCSV(
        _ table: OutputTable, parquet parquetPath: String, csv csvPath: String, guardFormulas: Bool = true,
        observe: (@Sendable ([ParquetColumnData]) -> Void)? = nil,
        blocks: (@Sendable (OutputTable) throws -> (rows: Int, sha256: String)?)? = nil
    ) throws -> (parquet: (rows: Int, sha256: String), csv: (rows: Int, sha256: String)) {
        if let layout = table.snapshotLayout {
            // The snapshot's rows are in another order (month blocks): each
            // file is built from its own row groups, side by side.
            let jobs: [@Sendable () throws -> (rows: Int, sha256: String)] = [
                {
                    let snapshot = layout()
                    if let written = try blocks?(snapshot) { return written }
                    return try writeParquet(snapshot, to: parquetPath, alsoWrite: { observe?($0) })
                },
                { try writeCSV(table, to: csvPath, guardFormulas: guardFormulas) },
            ]
            let written = try ParallelJobs(jobs).run()
            return (written[0], written[1])
        }
        let report = try CSVReportWriter(path: csvPath, header: table.header, guardFormulas: guardFormulas)
        let snapshot = try writeParquet(table, to: parquetPath) { columns in
            observe?(columns)
            let rows = columns.first?.count ?? 0
            for start in stride(from: 0, to: rows, by: csvChunkRows) {
                try report.append(
                    report.cells(columns, fields: table.fields, rows: start..<min(start + csvChunkRows, rows)))
            }
        }
        try report.finish()
        return (snapshot, (report.rows, report.sha256 ?? ""))
    }

    /// `writeParquet`, handing each row group's columns to `alsoWrite` once written.
    private static func writeParquet(
        _ table: OutputTable, to path: String, alsoWrite: ([ParquetColumnData]) throws -> Void
    ) throws -> (rows: Int, sha256: String) {
        let writer = try ParquetFileWriter(path: path, fields: table.fields)
        let ranges = table.rowGroupRanges(rowGroupRows: rowGroupRows)
        func build(_ rows: Range<Int>) -> BackgroundValue<[ParquetColumnData]> {
            BackgroundValue { table.rowGroup(rows) }
        }
        var next = ranges.first.map(build)
        for index in ranges.indices {
            guard let current = next else { break }
            next = index + 1 < ranges.count ? build(ranges[index + 1]) : nil
            let columns = current.value()
            try writer.writeRowGroup(columns)
            try alsoWrite(columns)
        }
        if table.rowCount == 0 { try writer.writeRowGroup(table.rowGroup(0..<0)) }
        try writer.close()
        return (table.rowCount, writer.sha256 ?? "")
    }
}
