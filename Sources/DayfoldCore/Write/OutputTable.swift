/// How one output column reads its value for a row; NULL is nil. Typed per
/// column, so row groups are filled straight from the run's facts: a row is
/// never boxed into an array of enum cells (building and releasing those
/// arrays was most of the write stage). The readers only read the run's
/// results, so they are `@Sendable`: row groups are built on other threads.
enum OutputValues: Sendable {
    case int(@Sendable (Int) -> Int64?)
    case double(@Sendable (Int) -> Double?)
    case date(@Sendable (Int) -> LocalDate?)
    case timestamp(@Sendable (Int) -> Instant?)
    case bool(@Sendable (Int) -> Bool?)
    case string(@Sendable (Int) -> String?)
    /// A STRING column whose values are interned bytes (ids), which the
    /// reader appends to the column itself (one value or NULL per row): no
    /// String, and no slice of the bytes (a retain and release), per row.
    case bytes(@Sendable (Int, inout ParquetByteColumn) -> Void)
}

/// One column of an output table: its Parquet field and how to read its values.
public struct OutputColumn: Sendable {
    public let field: ParquetField
    let values: OutputValues

    init(_ name: String, nullable: Bool = false, _ values: OutputValues) {
        let type: ParquetType
        switch values {
        case .int: type = .int64
        case .double: type = .double
        case .date: type = .date
        case .timestamp: type = .timestampMicros
        case .bool: type = .boolean
        case .string, .bytes: type = .string
        }
        field = ParquetField(name: name, type: type, nullable: nullable)
        self.values = values
    }

    /// This column's values for `rows`, for one Parquet row group.
    func data(_ rows: Range<Int>) -> ParquetColumnData {
        switch values {
        case .int(let value): return .int64(rows.map(value))
        case .timestamp(let value): return .int64(rows.map { value($0)?.micros })
        case .date(let value): return .int32(rows.map { value($0)?.days })
        case .double(let value): return .double(rows.map(value))
        case .bool(let value): return .boolean(rows.map(value))
        case .string(let value):
            var column = ParquetByteColumn()
            column.reserveRows(rows.count)
            column.appendRuns(rows, value)
            return .utf8(column)
        case .bytes(let append):
            var column = ParquetByteColumn()
            column.reserveRows(rows.count, bytes: 36 * rows.count)
            for row in rows { append(row, &column) }
            precondition(column.count == rows.count, "a byte column's reader appends one value or NULL per row")
            return .utf8(column)
        }
    }
}

/// An output table defined once, written both as a CSV report and as a
/// Parquet snapshot from the same typed column data, so the two can never
/// disagree. Values are made one row range at a time, so a writer streams
/// them in bounded row groups (which may be built on another thread).
public struct OutputTable: Sendable {
    public var name: String
    public var fields: [ParquetField]
    public var rowCount: Int
    /// Typed column data for rows `range`, one per field, in field order.
    let rowGroup: @Sendable (Range<Int>) -> [ParquetColumnData]
    /// The rows where a block of the snapshot begins (ascending, from 0): a
    /// Parquet row group never spans two blocks (`relationship_days`' months).
    var blockStarts: [Int] = [0]
    /// The same rows in the snapshot's order and blocks, when that is not
    /// the report's (`relationship_days` is laid out in months); nil: the
    /// snapshot is written in this table's order.
    var snapshotLayout: (@Sendable () -> OutputTable)?
    /// The `BlockDigest` of what each block's rows are built from, given
    /// the blocks' row ranges: two blocks with one digest are the same rows.
    /// Set on a snapshot layout whose blocks a nightly run may copy
    /// (`SnapshotBlockWriter`). All blocks at once: what the digests share
    /// (a pass over the table's facts) is done once, and only by runs that
    /// keep blocks.
    var blockDigests: (@Sendable ([Range<Int>]) -> [String])?
    /// A column with one value on every row that changes from run to run
    /// (`relationship_days`' `as_of`), and its data for a row group of n
    /// rows: `blockDigests` leave it out, and a copied row group gets its
    /// chunk encoded again (`SnapshotBlockWriter`).
    var encodedOnCopy: EncodedOnCopy?

    /// See `encodedOnCopy`.
    struct EncodedOnCopy: Sendable {
        var column: Int
        var data: @Sendable (Int) -> ParquetColumnData
    }

    /// The table as its snapshot lays it out.
    var asSnapshot: OutputTable { snapshotLayout?() ?? self }

    /// The row groups of the snapshot: each block cut every `rowGroupRows` rows.
    func rowGroupRanges(rowGroupRows: Int) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        for (index, start) in blockStarts.enumerated() {
            let end = index + 1 < blockStarts.count ? blockStarts[index + 1] : rowCount
            for first in stride(from: start, to: end, by: rowGroupRows) {
                ranges.append(first..<min(first + rowGroupRows, end))
            }
        }
        return ranges
    }

    /// A table whose columns each read their value per row.
    init(name: String, rowCount: Int, columns: [OutputColumn]) {
        self.init(name: name, rowCount: rowCount, fields: columns.map(\.field)) { range in
            columns.map { $0.data(range) }
        }
    }

    /// A table that fills all its columns in one pass over a row range: for
    /// rows that reach into large shared arrays in no useful order (events
    /// sorted by relationship and day, tasks in file order), one pass per
    /// row instead of one per column saves a cache miss per value.
    init(
        name: String, rowCount: Int, fields: [ParquetField],
        rowGroup: @escaping @Sendable (Range<Int>) -> [ParquetColumnData]
    ) {
        self.name = name
        self.rowCount = rowCount
        self.fields = fields
        self.rowGroup = rowGroup
    }

    public var header: [String] { fields.map(\.name) }
}
