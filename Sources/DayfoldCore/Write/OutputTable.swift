/// One typed value of an output row; NULL is the payload's nil.
public enum Cell: Sendable {
    case int(Int64?)
    case double(Double?)
    case string(String?)
    case date(LocalDate?)
    case timestamp(Instant?)
    case bool(Bool?)

    /// The CSV text: NULL empty, integers as integers, doubles shortest round-trip.
    var csv: String? {
        switch self {
        case .int(let value): return value.map { String($0) }
        case .double(let value): return value.map(formatNumber)
        case .string(let value): return value
        case .date(let value): return value?.description
        case .timestamp(let value): return value?.description
        case .bool(let value): return value.map { $0 ? "true" : "false" }
        }
    }
}

/// An output table defined once, written both as a CSV report and as a
/// Parquet snapshot, so the two can never disagree. Rows are produced on
/// demand so a writer can stream them in bounded chunks.
public struct OutputTable {
    public var name: String
    public var fields: [ParquetField]
    public var rowCount: Int
    public var row: (Int) -> [Cell]

    public var header: [String] { fields.map(\.name) }

    /// Column data for rows `range`, for one Parquet row group.
    func columns(_ range: Range<Int>) -> [ParquetColumnData] {
        var ints = [[Int64?]](repeating: [], count: fields.count)
        var doubles = [[Double?]](repeating: [], count: fields.count)
        var strings = [ParquetByteColumn](repeating: ParquetByteColumn(), count: fields.count)
        var bools = [[Bool?]](repeating: [], count: fields.count)
        var dates = [[Int32?]](repeating: [], count: fields.count)
        for index in range {
            for (position, cell) in row(index).enumerated() {
                switch cell {
                case .int(let value): ints[position].append(value)
                case .double(let value): doubles[position].append(value)
                case .string(let value): strings[position].append(value)
                case .date(let value): dates[position].append(value.map(\.days))
                case .timestamp(let value): ints[position].append(value?.micros)
                case .bool(let value): bools[position].append(value)
                }
            }
        }
        return fields.enumerated().map { position, field in
            switch field.type {
            case .boolean: return .boolean(bools[position])
            case .int32: return .int32(dates[position])
            case .date: return .int32(dates[position])
            case .int64, .timestampMicros: return .int64(ints[position])
            case .double: return .double(doubles[position])
            case .string: return .utf8(strings[position])
            }
        }
    }
}

func field(_ name: String, _ type: ParquetType, nullable: Bool = false) -> ParquetField {
    ParquetField(name: name, type: type, nullable: nullable)
}
