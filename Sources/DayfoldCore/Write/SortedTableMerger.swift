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
                reader: try CSVRecordReader(stream: try openByteStream(path: path, chunkSize: 64 << 10), path: path))
            _ = try cursor.next()  // header
            cursors.append(cursor)
        }
        let header = fields.map(\.name)
        let reportWriter = try report.map { try CSVReportWriter(path: $0, header: header) }
        let debugWriter = try debug.map { try CSVReportWriter(path: $0, header: header) }
        let parquet = try ParquetFileWriter(path: snapshot, fields: fields)
        var heads: [[String?]?] = try cursors.map { try SortedTableMerger.row($0) }
        // Typed columns of the row group being filled (no second copy of the rows).
        var columns = fields.map { ColumnAccumulator(type: $0.type) }
        var buffered = 0
        var rows = 0
        func flush() throws {
            try parquet.writeRowGroup(columns.map { $0.data })
            for index in columns.indices { columns[index].reset() }
            buffered = 0
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
            for (index, text) in row.enumerated() where index < columns.count { columns[index].append(text) }
            buffered += 1
            rows += 1
            if buffered == TableWriters.rowGroupRows { try flush() }
            heads[chosen] = try SortedTableMerger.row(cursors[chosen])
        }
        if buffered > 0 || rows == 0 { try flush() }
        try parquet.close()
        try reportWriter?.finish()
        try debugWriter?.finish()
        return rows
    }

    private static func row(_ cursor: CSVRecordCursor) throws -> [String?]? {
        guard let record = try cursor.next() else { return nil }
        return (0..<record.fieldCount).map { record.string($0) }
    }

}

/// One column of a row group, typed as it is read back from a spill file
/// (written without the formula guard, so values are exact).
struct ColumnAccumulator {
    let type: ParquetType
    private var strings: [String?] = []
    private var ints: [Int64?] = []
    private var dates: [Int32?] = []
    private var doubles: [Double?] = []
    private var bools: [Bool?] = []

    init(type: ParquetType) { self.type = type }

    mutating func append(_ text: String?) {
        switch type {
        case .string: strings.append(text)
        case .date, .int32: dates.append(text.flatMap(LocalDate.init).map(\.days))
        case .int64: ints.append(text.flatMap { Int64($0) })
        case .timestampMicros: ints.append(text.flatMap(parseAsOf)?.instant.micros)
        case .double: doubles.append(text.flatMap { Double($0) })
        case .boolean: bools.append(text.map { $0 == "true" })
        }
    }

    var data: ParquetColumnData {
        switch type {
        case .string: return .string(strings)
        case .date, .int32: return .int32(dates)
        case .int64, .timestampMicros: return .int64(ints)
        case .double: return .double(doubles)
        case .boolean: return .boolean(bools)
        }
    }

    mutating func reset() {
        strings.removeAll(keepingCapacity: true)
        ints.removeAll(keepingCapacity: true)
        dates.removeAll(keepingCapacity: true)
        doubles.removeAll(keepingCapacity: true)
        bools.removeAll(keepingCapacity: true)
    }
}
