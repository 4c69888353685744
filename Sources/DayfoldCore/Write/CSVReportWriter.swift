import Foundation

/// Writes an RFC 4180 CSV file with a header row; NULL is an empty field.
/// Output is buffered and streamed to the file, so memory stays flat.
/// Cells a spreadsheet would run as a formula (leading `=`, `+`, `-`, `@`,
/// tab or CR, and not a number) get a leading `'`: the CSV-injection guard.
public final class CSVReportWriter {
    private var buffer: [UInt8] = []
    private let file: OutputFile
    private let path: String
    public private(set) var rows = 0
    /// The SHA-256 of every byte written, taken as it is written (the
    /// manifest's digest without reading the file back); set by `finish`.
    public private(set) var sha256: String?
    private var hasher = SHA256Hasher()
    /// False for internal spill files, which must read back the exact values.
    private let guardFormulas: Bool
    private let flushAt: Int

    /// `readBack`: the run reads the file again (a partition's spill), so
    /// it is written through the page cache (see `OutputFile`).
    /// `bufferBytes`: written to the file whenever this much is buffered
    /// (smaller for the many month spills a merge keeps open at once).
    public init(
        path: String, header: [String], guardFormulas: Bool = true, readBack: Bool = false, bufferBytes: Int = 1 << 20
    ) throws {
        self.path = path
        self.guardFormulas = guardFormulas
        self.flushAt = max(1, bufferBytes)
        let url = URL(fileURLWithPath: path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        do {
            file = try OutputFile(path: path, throughPageCache: readBack)
        } catch {
            throw DayfoldError(
                .output, "cannot create \(path): \(error.message)", fix: "check that the output folder is writable")
        }
        buffer.reserveCapacity(flushAt)
        try append(row: header)
        rows = 0
    }

    /// About how many bytes a chunk's cells take (see `cells`).
    private var cellBytesHint = 0

    public func append(row: [String?]) throws {
        for (position, cell) in row.enumerated() {
            if position > 0 { buffer.append(0x2C) }
            if let cell { CSVReportWriter.escape(cell, into: &buffer, guardFormulas: guardFormulas) }
        }
        buffer.append(0x0A)
        rows += 1
        if buffer.count >= flushAt { try flush() }
    }

    /// Appends a record read back from a spill file (written without the
    /// formula guard): fields are quoted from their bytes; only a field that
    /// may need the guard goes through `escape`, so the output is the same as
    /// `append(row:)`.
    func append(record: CSVRecord) throws {
        let bytes = record.bytes
        let fields = bytes.span
        for index in 0..<record.fieldCount {
            if index > 0 { buffer.append(0x2C) }
            Self.appendField(
                fields.extracting(record.start(index)..<record.end(index)), into: &buffer, guardFormulas: guardFormulas)
        }
        buffer.append(0x0A)
        rows += 1
        if buffer.count >= flushAt { try flush() }
    }

    /// Appends a chunk of rows formatted column by column (see `CSVCells`).
    func append(_ cells: CSVCells) throws {
        cells.appendRows(into: &buffer)
        rows += cells.rows
        if buffer.count >= flushAt { try flush() }
    }

    /// Formats a chunk of an output table's rows (typed as `fields`): the
    /// columns' rows `range` (all of them when nil).
    func cells(_ columns: [ParquetColumnData], fields: [ParquetField], rows range: Range<Int>? = nil) -> CSVCells {
        let range = range ?? 0..<(columns.first?.count ?? 0)
        // Room for about what the previous chunk took: a chunk outgrowing
        // its room copied its text once or twice.
        var cells = CSVCells(rows: range.count, expectedBytes: max(cellBytesHint, buffer.capacity))
        for (column, field) in zip(columns, fields) {
            cells.append(column, rows: range, type: field.type, guardFormulas: guardFormulas)
        }
        cellBytesHint = cells.bytes.count + cells.bytes.count / 8
        return cells
    }

    /// A field given as bytes, quoted and guarded as `escape` would.
    static func appendField(_ field: Span<UInt8>, into output: inout [UInt8], guardFormulas: Bool) {
        guard !field.isEmpty else { return }
        if guardFormulas && CSVReportWriter.mayBeFormula(field[0]) {
            CSVReportWriter.escape(CSVFieldQuoting.text(field), into: &output)
        } else {
            CSVFieldQuoting.append(field, into: &output)
        }
    }

    /// A number as `escape(formatNumber(value))` writes it, with no String
    /// for an integral value (most report numbers are counts).
    static func appendNumber(_ value: Double, into output: inout [UInt8], guardFormulas: Bool) {
        if value == value.rounded(), abs(value) < 1e15 {
            appendInteger(Int64(value), into: &output)
        } else {
            escape(formatNumber(value), into: &output, guardFormulas: guardFormulas)
        }
    }

    /// Decimal digits of `value` (what `String(value)` writes), with no String.
    static func appendInteger(_ value: Int64, into output: inout [UInt8]) {
        DecimalDigits.append(value, into: &output)
    }

    private func flush() throws {
        try file.write(buffer)
        hasher.update(buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    static func escape(_ cell: String, into output: inout [UInt8], guardFormulas: Bool = true) {
        var text = cell
        if guardFormulas, let first = text.utf8.first, mayBeFormula(first), !isPlainDecimal(text.utf8) {
            text = "'" + text
        }
        CSVFieldQuoting.append(text.utf8.span, into: &output)
    }

    /// A leading `=`, `+`, `-`, `@`, tab or CR: a spreadsheet may run the cell.
    private static func mayBeFormula(_ first: UInt8) -> Bool {
        first == 0x3D || first == 0x2B || first == 0x2D || first == 0x40 || first == 0x09 || first == 0x0D
    }

    public func finish() throws {
        try flush()
        try file.close()
        sha256 = hasher.finalizeHex()
    }
}
