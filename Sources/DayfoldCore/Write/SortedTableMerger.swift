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

    init(fields: [ParquetField], keyColumn: Int) {
        self.init(fields: fields, keyColumns: [keyColumn])
    }

    init(fields: [ParquetField], keyColumns: [Int]) {
        self.fields = fields
        self.keyColumns = keyColumns
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
            for index in columns.indices where index < row.fieldCount { columns[index].append(row, index) }
            buffered += 1
            rows += 1
            if buffered == TableWriters.rowGroupRows { try flush() }
            heads[chosen] = try cursors[chosen].next()
        }
        if buffered > 0 || rows == 0 { try flush() }
        try parquet.close()
        try reportWriter?.finish()
        try debugWriter?.finish()
        return rows
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
