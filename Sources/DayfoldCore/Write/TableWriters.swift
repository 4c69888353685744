/// Writes an `OutputTable` as a CSV report or as a Parquet snapshot
/// (row groups of a bounded number of rows, so memory stays flat).
enum TableWriters {
    static let rowGroupRows = 1 << 17

    /// Returns the number of data rows written.
    @discardableResult
    static func writeCSV(_ table: OutputTable, to path: String, guardFormulas: Bool = true) throws -> Int {
        let writer = try CSVReportWriter(path: path, header: table.header, guardFormulas: guardFormulas)
        for index in 0..<table.rowCount { try writer.append(row: table.row(index).map(\.csv)) }
        try writer.finish()
        return writer.rows
    }

    @discardableResult
    static func writeParquet(_ table: OutputTable, to path: String) throws -> Int {
        let writer = try ParquetFileWriter(path: path, fields: table.fields)
        var start = 0
        while start < table.rowCount {
            let end = min(start + rowGroupRows, table.rowCount)
            try writer.writeRowGroup(table.columns(start..<end))
            start = end
        }
        if table.rowCount == 0 { try writer.writeRowGroup(table.columns(0..<0)) }
        try writer.close()
        return table.rowCount
    }
}
