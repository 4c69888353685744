/// A row's fields by the kind's declared column (`ExportColumns`) instead
/// of a position: `row.date(InstanceColumn.localDate)`. Each forwards to the
/// positional accessor of the same name (the declaration's case is the position).
extension CSVRow {
    mutating func text(_ column: some ExportColumns) -> String? { text(column.rawValue) }
    func has(_ column: some ExportColumns) -> Bool { has(column.rawValue) }
    func range(_ column: some ExportColumns) -> Range<Int>? { range(column.rawValue) }
    func slice(_ column: some ExportColumns) -> ArraySlice<UInt8>? { slice(column.rawValue) }
    func withField<Result>(_ column: some ExportColumns, _ body: (Span<UInt8>) -> Result) -> Result {
        withField(column.rawValue, body)
    }
    mutating func date(_ column: some ExportColumns) -> LocalDate? { date(column.rawValue) }
    mutating func instant(_ column: some ExportColumns) -> ParsedInstant? { instant(column.rawValue) }
    mutating func number(_ column: some ExportColumns) -> Double? { number(column.rawValue) }
    mutating func integer(_ column: some ExportColumns) -> Int64? { integer(column.rawValue) }
    mutating func bool(_ column: some ExportColumns) -> Bool? { bool(column.rawValue) }
    mutating func status(_ column: some ExportColumns) -> TaskStatus? { status(column.rawValue) }
    mutating func clockTime(_ column: some ExportColumns) -> Int32? { clockTime(column.rawValue) }
    mutating func choiceIndex(_ column: some ExportColumns, _ choices: Choices) -> Int? {
        choiceIndex(column.rawValue, choices)
    }
    mutating func choice(_ column: some ExportColumns, _ choices: Choices) -> String? {
        choice(column.rawValue, choices)
    }

    /// Rejects the row for lacking a value in `column` (`missing_column:<name>`).
    mutating func failMissing(_ column: some ExportColumns) { fail(column.missing) }
}

extension CSVPeek {
    func field(_ column: some ExportColumns) -> Range<Int>? { field(column.rawValue) }
    func hash(_ column: some ExportColumns) -> UInt64? { hash(column.rawValue) }
    func date(_ column: some ExportColumns) -> LocalDate? { date(column.rawValue) }
    func instant(_ column: some ExportColumns) -> ParsedInstant? { instant(column.rawValue) }
    func isInstantOrNull(_ column: some ExportColumns) -> Bool { isInstantOrNull(column.rawValue) }
    func fingerprint(_ column: some ExportColumns) -> UInt64? { fingerprint(column.rawValue) }
    func status(_ column: some ExportColumns) -> TaskStatus? { status(column.rawValue) }
    func number(_ column: some ExportColumns) -> InputNumber? { number(column.rawValue) }
    func combine(_ column: some ExportColumns, into key: inout Fingerprint) { combine(column.rawValue, into: &key) }
    func relationship(_ column: some ExportColumns, in lookup: RelationshipLookup) -> Int? {
        relationship(column.rawValue, in: lookup)
    }
}
