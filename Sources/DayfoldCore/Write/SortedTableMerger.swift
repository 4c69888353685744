import Foundation

/// Merges the sorted per-partition copies of one output table into the
/// published CSV report and Parquet snapshot. Every relationship and user
/// lives in one partition, so taking rows by their first key column (and, on
/// a tie, from the lower partition) reproduces the order of a whole run.
struct SortedTableMerger {
    var fields: [ParquetField]
    /// The column the table is sorted by first (relationship_id or user_id).
    var keyColumn: Int

    /// Writes the merge; returns the number of rows.
    func merge(inputs: [String], report: String?, snapshot: String, debug: String?) throws -> Int {
        var cursors: [CSVRecordCursor] = []
        for path in inputs where FileManager.default.fileExists(atPath: path) {
            let cursor = CSVRecordCursor(
                reader: try CSVRecordReader(stream: try openByteStream(path: path), path: path))
            _ = try cursor.next()  // header
            cursors.append(cursor)
        }
        let header = fields.map(\.name)
        let reportWriter = try report.map { try CSVReportWriter(path: $0, header: header) }
        let debugWriter = try debug.map { try CSVReportWriter(path: $0, header: header) }
        let parquet = try ParquetFileWriter(path: snapshot, fields: fields)
        var heads: [[String?]?] = try cursors.map { try SortedTableMerger.row($0) }
        var group: [[String?]] = []
        var rows = 0
        func flush() throws {
            let buffered = group
            let table = OutputTable(name: "", fields: fields, rowCount: buffered.count) { index in
                zip(fields, buffered[index]).map { SortedTableMerger.cell($1, $0.type) }
            }
            try parquet.writeRowGroup(table.columns(0..<buffered.count))
            group.removeAll(keepingCapacity: true)
        }
        while true {
            var best: Int?
            for (position, head) in heads.enumerated() {
                guard let head else { continue }
                if let current = best, let currentHead = heads[current],
                    !bytesLess(head[keyColumn] ?? "", currentHead[keyColumn] ?? "")
                {
                    continue
                }
                best = position
            }
            guard let chosen = best, let row = heads[chosen] else { break }
            try reportWriter?.append(row: row)
            try debugWriter?.append(row: row)
            group.append(row)
            rows += 1
            if group.count == TableWriters.rowGroupRows { try flush() }
            heads[chosen] = try SortedTableMerger.row(cursors[chosen])
        }
        if !group.isEmpty || rows == 0 { try flush() }
        try parquet.close()
        try reportWriter?.finish()
        try debugWriter?.finish()
        return rows
    }

    private static func row(_ cursor: CSVRecordCursor) throws -> [String?]? {
        guard let record = try cursor.next() else { return nil }
        return (0..<record.fieldCount).map { record.string($0) }
    }

    /// A cell read back from a spill file (written without the formula guard).
    static func cell(_ text: String?, _ type: ParquetType) -> Cell {
        switch type {
        case .string: return .string(text)
        case .date: return .date(text.flatMap(LocalDate.init))
        case .int32, .int64: return .int(text.flatMap { Int64($0) })
        case .double: return .double(text.flatMap { Double($0) })
        case .timestampMicros: return .timestamp(text.flatMap(parseAsOf)?.instant)
        case .boolean: return .bool(text.map { $0 == "true" })
        }
    }
}
