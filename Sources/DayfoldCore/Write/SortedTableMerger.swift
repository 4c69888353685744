import Foundation

/// Merges the sorted per-partition copies of one output table into the
/// published CSV report and Parquet snapshot. Every relationship and user
/// lives in one partition, so taking rows by their first key column (and, on
/// a tie, from the lower partition) reproduces the order of a whole run.
/// A table whose rows interleave across partitions (push deliveries, by day
/// then id) names every column of its sort key.
struct SortedTableMerger {
    var fields: [ParquetField]
    /// The columns the table is sorted by (relationship_id or user_id; or
    /// day, delivery_id), compared as bytes one after the other.
    var keyColumns: [Int]
    /// The DATE column whose calendar months lay out the snapshot
    /// (`relationship_days`, `RelationshipDaySegments.inMonths`); nil: the
    /// snapshot is in the report's order.
    var monthBlockColumn: Int?

    init(fields: [ParquetField], keyColumn: Int) {
        self.init(fields: fields, keyColumns: [keyColumn])
    }

    init(fields: [ParquetField], keyColumns: [Int], monthBlockColumn: Int? = nil) {
        self.fields = fields
        self.keyColumns = keyColumns
        self.monthBlockColumn = monthBlockColumn
    }

    /// Writes the merge; returns the number of rows. Rows stay as the
    /// cursors' records (bytes and field offsets): keys are compared as bytes,
    /// values parsed from bytes into the row group's columns, and report rows
    /// copied field by field, so a row costs no String per field.
    /// `observe` sees each row group's columns once written (the HTML report's collector).
    func merge(
        inputs: [String], report: String?, snapshot: String, debug: String?,
        observe: (@Sendable ([ParquetColumnData]) -> Void)? = nil
    ) throws -> Int {
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
        var heads: [CSVRecord?] = try cursors.map { try $0.next() }
        // Typed columns of the row group being filled (no second copy of the rows).
        var columns = fields.map { ColumnAccumulator(type: $0.type) }
        var buffered = 0
        var rows = 0
        func flush() throws {
            let data = columns.map { $0.data }
            try parquet.writeRowGroup(data)
            observe?(data)
            for index in columns.indices { columns[index].reset() }
            buffered = 0
        }
        // Month blocks: the merged rows come in the report's order, so each
        // month's rows, appended to a spill of their own as they come, are
        // in the snapshot's order inside the month; the spills are written
        // to the snapshot oldest month first once the merge is done.
        var months = MonthSpills(snapshot: snapshot, header: header)
        defer { months.remove() }
        func take(_ row: CSVRecord) throws {
            if let column = monthBlockColumn {
                try months.append(row, month: Self.month(row, column))
                return
            }
            for index in columns.indices where index < row.fieldCount { columns[index].append(row, index) }
            buffered += 1
            if buffered == TableWriters.rowGroupRows { try flush() }
        }
        // The cursor holding the smallest (key, partition); it stays chosen
        // while its key does not change (a relationship's rows are
        // contiguous), so the partitions are compared only at key changes,
        // not per row.
        var chosenKey: [[UInt8]] = keyColumns.map { _ in [] }
        var best: Int?
        while true {
            if let current = best, let head = heads[current], hasKey(head, chosenKey) {
                // Same key as the row just taken: no other partition can come before it.
            } else {
                best = nil
                for (position, head) in heads.enumerated() {
                    guard let head else { continue }
                    if let current = best, let currentHead = heads[current], !less(head, currentHead) {
                        continue
                    }
                    best = position
                }
                if let chosen = best, let head = heads[chosen] {
                    for (slot, column) in keyColumns.enumerated() {
                        chosenKey[slot].removeAll(keepingCapacity: true)
                        chosenKey[slot].append(contentsOf: Self.key(head, column))
                    }
                }
            }
            guard let chosen = best, let row = heads[chosen] else { break }
            try reportWriter?.append(record: row)
            try debugWriter?.append(record: row)
            try take(row)
            rows += 1
            heads[chosen] = try cursors[chosen].next()
        }
        // Each month is one block: its rows cut into row groups from its
        // first row, as `OutputTable.rowGroupRanges` cuts a whole run's.
        try months.forEachRecord { row, newMonth in
            if newMonth && buffered > 0 { try flush() }
            for index in columns.indices where index < row.fieldCount { columns[index].append(row, index) }
            buffered += 1
            if buffered == TableWriters.rowGroupRows { try flush() }
        }
        if buffered > 0 || rows == 0 { try flush() }
        try parquet.close()
        try reportWriter?.finish()
        try debugWriter?.finish()
        return rows
    }

    /// The month (`RelationshipDaySegments.monthIndex`) of `record`'s date
    /// field; a NULL or unreadable date (never written by a run) sorts first.
    private static func month(_ record: CSVRecord, _ column: Int) -> Int {
        guard column < record.fieldCount,
            let date = LocalDate.parse(record.bytes, record.start(column), record.end(column))
        else { return Int.min }
        return RelationshipDaySegments.monthIndex(date)
    }

    /// Whether `record`'s key fields are exactly `key` (checked on every row
    /// taken: `bytesEqual` is one `memcmp` per column).
    private func hasKey(_ record: CSVRecord, _ key: [[UInt8]]) -> Bool {
        keyColumns.indices.allSatisfy { bytesEqual(Self.key(record, keyColumns[$0]), key[$0]) }
    }

    /// Whether `left`'s key comes before `right`'s (column by column, as bytes).
    private func less(_ left: CSVRecord, _ right: CSVRecord) -> Bool {
        for column in keyColumns {
            let a = Self.key(left, column)
            let b = Self.key(right, column)
            if bytesLess(a, b) { return true }
            if bytesLess(b, a) { return false }
        }
        return false
    }

    /// The key field's bytes (empty for NULL, which sorts first as "" did).
    private static func key(_ record: CSVRecord, _ column: Int) -> ArraySlice<UInt8> {
        guard column < record.fieldCount else { return [] }
        return record.bytes[record.start(column)..<record.end(column)]
    }
}

/// The merged rows of each month, spilled to a CSV file per month beside
/// the snapshot (the merge streams: a month's rows come interleaved with
/// every other month's), then read back oldest month first.
private struct MonthSpills {
    let snapshot: String
    let header: [String]
    private var writers: [Int: CSVReportWriter] = [:]

    init(snapshot: String, header: [String]) {
        self.snapshot = snapshot
        self.header = header
    }

    private func path(_ month: Int) -> String { snapshot + ".month\(month).csv" }

    mutating func append(_ row: CSVRecord, month: Int) throws {
        if writers[month] == nil {
            writers[month] = try CSVReportWriter(
                path: path(month), header: header, guardFormulas: false, readBack: true, bufferBytes: 64 << 10)
        }
        try writers[month]?.append(record: row)
    }

    /// Every spilled row, months in order; `newMonth` is true on each month's first row.
    mutating func forEachRecord(_ body: (CSVRecord, _ newMonth: Bool) throws -> Void) throws {
        for month in writers.keys.sorted() {
            guard let writer = writers[month] else { continue }
            try writer.finish()
            let cursor = CSVRecordCursor(
                reader: try CSVRecordReader(
                    stream: try openByteStream(path: path(month), chunkSize: 64 << 10), path: path(month)))
            _ = try cursor.next()  // header
            var first = true
            while let row = try cursor.next() {
                try body(row, first)
                first = false
            }
            try? FileManager.default.removeItem(atPath: path(month))
        }
        writers = [:]
    }

    /// Removes what is left of the spills (a merge that failed half way).
    func remove() {
        for month in writers.keys { try? FileManager.default.removeItem(atPath: path(month)) }
    }
}

/// One column of a row group, typed as it is read back from a spill file
/// (written without the formula guard, so values are exact).
struct ColumnAccumulator {
    let type: ParquetType
    private var strings = ParquetByteColumn()
    private var ints: [Int64?] = []
    private var dates: [Int32?] = []
    private var doubles: [Double?] = []
    private var bools: [Bool?] = []

    init(type: ParquetType) { self.type = type }

    /// Appends field `index` of `record`, parsed from its bytes as the
    /// whole run's values were written (NULL: an empty field).
    mutating func append(_ record: CSVRecord, _ index: Int) {
        let start = record.start(index)
        let end = record.end(index)
        let null = start == end
        let bytes = record.bytes
        switch type {
        case .string: if null { strings.appendNull() } else { strings.append(bytes[start..<end]) }
        case .date, .int32: dates.append(null ? nil : LocalDate.parse(bytes, start, end)?.days)
        case .int64: ints.append(null ? nil : parseInteger(bytes, start, end))
        case .timestampMicros: ints.append(null ? nil : InstantParser.parse(bytes, start, end)?.instant.micros)
        case .double: doubles.append(null ? nil : parseDouble(bytes, start, end))
        case .boolean: bools.append(null ? nil : bytes[start..<end].elementsEqual("true".utf8))
        }
    }

    var data: ParquetColumnData {
        switch type {
        case .string: return .utf8(strings)
        case .date, .int32: return .int32(dates)
        case .int64, .timestampMicros: return .int64(ints)
        case .double: return .double(doubles)
        case .boolean: return .boolean(bools)
        }
    }

    mutating func reset() {
        strings.removeAll()
        ints.removeAll(keepingCapacity: true)
        dates.removeAll(keepingCapacity: true)
        doubles.removeAll(keepingCapacity: true)
        bools.removeAll(keepingCapacity: true)
    }
}
