/// A chunk of an output table's rows formatted as CSV cells, column by
/// column: each column is formatted in one loop over its typed values, and
/// the writer then interleaves the cells into rows. Formatting cell by cell
/// in row order switched on each column's type and copied its payload (a
/// retain and a release) for every cell; a chunk here costs one pass per
/// column and one copy of its bytes.
struct CSVCells {
    /// The cells' text back to back, column after column.
    private(set) var bytes: [UInt8] = []
    /// Where each cell ends in `bytes` (cell `column * rows + row`).
    private(set) var ends: [Int] = []
    let rows: Int
    private(set) var columns = 0

    init(rows: Int, expectedBytes: Int = 0) {
        self.rows = rows
        bytes.reserveCapacity(expectedBytes)
    }

    /// Formats one column of the chunk as `CSVReportWriter.append(row:)`
    /// would write its values' `description`s (NULL: an empty cell): the
    /// column's rows `range` (all of them when nil), one per chunk row.
    mutating func append(
        _ column: ParquetColumnData, rows range: Range<Int>? = nil, type: ParquetType, guardFormulas: Bool
    ) {
        let range = range ?? 0..<column.count
        precondition(range.count == rows && range.upperBound <= column.count, "one value per chunk row")
        ends.reserveCapacity(ends.count + rows)
        switch column {
        case .int64(let values):
            let timestamps = type == .timestampMicros
            cells(values[range]) { value, text in
                guard timestamps else { return CSVReportWriter.appendInteger(value, into: &text) }
                let instant = Instant(micros: value)
                if !instant.appendISOText(into: &text) {
                    CSVReportWriter.escape(instant.description, into: &text, guardFormulas: guardFormulas)
                }
            }
        case .int32(let values):
            let dates = type == .date
            cells(values[range]) { value, text in
                guard dates else { return CSVReportWriter.appendInteger(Int64(value), into: &text) }
                let date = LocalDate(days: value)
                if !date.appendISOText(into: &text) {
                    CSVReportWriter.escape(date.description, into: &text, guardFormulas: guardFormulas)
                }
            }
        case .double(let values):
            cells(values[range]) { CSVReportWriter.appendNumber($0, into: &$1, guardFormulas: guardFormulas) }
        case .boolean(let values):
            cells(values[range]) { $1.append(contentsOf: $0 ? CSVCells.trueText : CSVCells.falseText) }
        case .string(let values):
            cells(values[range]) { CSVReportWriter.escape($0, into: &$1, guardFormulas: guardFormulas) }
        case .utf8(let values):
            let source = values.bytes.span
            for row in range {
                if !values.nulls[row] {
                    CSVReportWriter.appendField(
                        source.extracting(values.range(row)), into: &bytes, guardFormulas: guardFormulas)
                }
                ends.append(bytes.count)
            }
        }
        columns += 1
    }

    /// One cell per value: `write` appends a value's text; a NULL cell stays empty.
    private mutating func cells<Value>(_ values: ArraySlice<Value?>, _ write: (Value, inout [UInt8]) -> Void) {
        for value in values {
            if let value { write(value, &bytes) }
            ends.append(bytes.count)
        }
    }

    private static let trueText = Array("true".utf8)
    private static let falseText = Array("false".utf8)

    /// Appends the chunk's rows, each cell copied from its column, into
    /// `output`, a comma after each cell and a line break after each row:
    /// room for all of them is taken once (`ByteCopy.appendRows`).
    func appendRows(into output: inout [UInt8]) {
        ByteCopy.appendRows(
            cells: bytes, ends: ends, rows: rows, columns: columns, separator: 0x2C, terminator: 0x0A, into: &output)
    }
}
