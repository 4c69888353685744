/// Reads the values of one row group's typed columns by column name: how
/// `HTMLReportCollector` takes the report's values from what is written.
struct RowGroupView {
    let fields: [ParquetField]
    let columns: [ParquetColumnData]

    var rowCount: Int { columns.first?.count ?? 0 }

    /// The position of column `name`; nil when the table has none.
    func index(_ name: String) -> Int? {
        fields.firstIndex { $0.name == name }
    }

    func string(_ column: Int?, _ row: Int) -> String? {
        guard let column else { return nil }
        switch columns[column] {
        case .utf8(let values):
            return values.nulls[row] ? nil : String(decoding: values.bytes[values.range(row)], as: UTF8.self)
        case .string(let values): return values[row]
        default: return nil
        }
    }

    /// A STRING value's bytes (empty for NULL), without making a String.
    func bytes(_ column: Int?, _ row: Int) -> ArraySlice<UInt8> {
        guard let column, case .utf8(let values) = columns[column] else { return [] }
        return values.bytes[values.range(row)]
    }

    func int(_ column: Int?, _ row: Int) -> Int64? {
        guard let column else { return nil }
        switch columns[column] {
        case .int64(let values): return values[row]
        case .int32(let values): return values[row].map(Int64.init)
        default: return nil
        }
    }

    func date(_ column: Int?, _ row: Int) -> LocalDate? {
        guard let column, case .int32(let values) = columns[column] else { return nil }
        return values[row].map { LocalDate(days: $0) }
    }

    func double(_ column: Int?, _ row: Int) -> Double? {
        guard let column, case .double(let values) = columns[column] else { return nil }
        return values[row]
    }
}
