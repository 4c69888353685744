/// The columns of one export kind, declared once (SPEC §1): a kind is an
/// `Int`-backed enum whose cases are its columns in the order they are
/// listed, each with its header name and whether a row must have a value.
/// The reader's column list (`readerColumns`), the positions a row's fields
/// are read by (the case itself), the generator's header and the partition
/// router's routing columns all come from it.
package protocol ExportColumns: CaseIterable, Sendable, RawRepresentable where RawValue == Int, AllCases == [Self] {
    /// The kind's name in rejects and accounting (`instances`, `health`, …).
    static var kind: String { get }
    /// The column's name in a file's header.
    var name: String { get }
    /// Whether a row must have a value in it (`missing_column:<name>` otherwise).
    var isRequired: Bool { get }
    /// Whether the reader checks the value as an id (SPEC §10) before the
    /// row's other values; by default every id-named column (`*_id`, …).
    var isCheckedAsID: Bool { get }
    /// Whether a header without the column gets its stderr line; by default
    /// the required columns.
    var isExpected: Bool { get }
    /// Columns of the export that are never read and must reach no output
    /// (SPEC §11.1): unknown columns like any other, whose fields a rejected
    /// row's raw text leaves empty.
    static var neverRead: Set<String> { get }
}

extension ExportColumns {
    package var isCheckedAsID: Bool { CSVSource.Column.isIDName(name) }
    package var isExpected: Bool { isRequired }
    package static var neverRead: Set<String> { [] }

    /// The kind's columns as the CSV reader matches them against a header.
    static var readerColumns: [CSVSource.Column] {
        allCases.map { declared in
            var column = CSVSource.Column(name: declared.name, required: declared.isRequired)
            column.isID = declared.isCheckedAsID
            column.expected = declared.isExpected
            return column
        }
    }

    /// Every column name, in declaration order, as a CSV header line (no line break).
    package static var header: String { allCases.map(\.name).joined(separator: ",") }

    /// The reject reason of a row without a value in this column.
    var missing: String { "missing_column:" + name }
}
