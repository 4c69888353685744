import Synchronization

/// Reads one CSV file of a drop against the columns its kind knows:
/// matches the header by name, notes unknown columns, rejects rows whose field
/// count is wrong or whose file lacks a required column, and hands every
/// other row to the kind's reader through a `CSVRow`.
struct CSVSource {
    let relativePath: String
    let absolutePath: String
    let kind: String
    /// Keep each rejected row's text (`validate` needs only file, line and reason).
    var keepRaw = true
    /// Hash the file's bytes as they are read (the account's `sha256`);
    /// false leaves it empty and only counts them (`bytesRead`).
    var hash = true
    /// Header names whose fields a rejected row's raw text leaves empty
    /// (SPEC §11.1: tokens and payloads reach no file dayfold writes). A row
    /// of such a file whose field count is wrong keeps no raw text at all:
    /// which field is which cannot be told.
    var blankedInRaw: Set<String> = []

    /// Columns of a kind: name and whether a value is required.
    struct Column {
        var name: String
        var required: Bool
        /// An id (SPEC §10): longer than 256 bytes or holding a control
        /// character rejects the row (`bad_id:<col>`), before its other values.
        var isID: Bool
        /// The header must have it (a header without it gets its stderr
        /// line): the required columns, and those a kind's reader requires
        /// itself (health's, required only of rows of a known type).
        var expected: Bool

        init(name: String, required: Bool) {
            self.name = name
            self.required = required
            isID = Column.isIDName(name)
            expected = required
        }

        /// Every `*_id` column, `id`, `card_key`, `source_key`, `idempotency_key`.
        static func isIDName(_ name: String) -> Bool {
            name == "id" || name.hasSuffix("_id") || name == "card_key" || name == "source_key"
                || name == "idempotency_key"
        }
    }

    /// Reads every row; `body` decides it.
    func read(
        columns: [Column], account: inout FileAccount, rejects: inout [RejectedRecord],
        _ body: (inout CSVRow) throws -> Void
    ) throws {
        try read(
            columns: columns, account: &account, rejects: &rejects, prepare: nil as (@Sendable (CSVPeek) -> Bool)?
        ) { row, _ in try body(&row) }
    }

    /// Bytes read at a time: 128 KB, well within a core's L2 cache, so the
    /// tokenizer scans each chunk right after `read` copied it there. With
    /// 1 MB reads it scanned bytes the copy had pushed further out (about
    /// 1–2 % of the run's CPU time in alternated runs).
    static let readChunkBytes = 128 << 10

    /// Reads every row, with `prepare` run for each row (whose field count is
    /// right) on a thread between the parser and the reader, before `body`
    /// sees it: per-row work that needs no state of the reader (parsing,
    /// hashing) is done there, beside the reading thread instead of on it. `body` gets the prepared value (nil
    /// only without `prepare`). `ahead` sees the prepared value of the row
    /// `CSVRecordReader.lookahead` rows before `body` does, to start loading
    /// what the row will look up in large tables.
    func read<Prepared: Sendable>(
        columns: [Column], account: inout FileAccount, rejects: inout [RejectedRecord],
        prepare: (@Sendable (CSVPeek) -> Prepared)?, ahead: ((Prepared) -> Void)? = nil,
        _ body: (inout CSVRow, Prepared?) throws -> Void
    ) throws {
        let stream: ByteStream
        let digest = StreamDigest(hashing: hash)
        do {
            stream = try openByteStream(path: absolutePath, chunkSize: Self.readChunkBytes, digest: digest)
        } catch let error as ByteStreamError {
            throw DayfoldError(.input, "\(relativePath): cannot open: \(error.detail)")
        }
        let reader = try CSVRecordReader(stream: stream, path: relativePath)
        if let prepare {
            reader.prepareBatch = CSVSource.preparing(columns, prepare)
        }
        // The preparing thread checks the rows' ids too (see `PreparedRow`).
        let idsPrepared = prepare != nil
        var header: HeaderMapping?
        // The header's facts each row needs, outside the mapping: reading
        // them from it copied its arrays (a retain each) for every row.
        var fieldCount = 0
        var fromSpill = false
        var missingRequired: String?
        var indexes: [Int] = []
        // The kind's id columns the header has (checked on every row).
        var idColumns: [Int] = []
        var blanked: Set<Int> = []
        // Replaced by the file's row at its first record (the reader passes
        // the same record object for every row).
        var row = CSVRow(record: CSVRecord(), columns: columns, indexes: [])
        // The prepared values of the batch being read (cast once per batch).
        // Shared by the loop and its look-ahead (`LoopState`).
        let preparedBatch = LoopState<CSVRecordBatch?>(nil)
        let prepared = LoopState<[PreparedRow<Prepared>]>([])
        func preparedRow(_ batch: CSVRecordBatch, _ index: Int) -> PreparedRow<Prepared>? {
            if preparedBatch.value !== batch {
                preparedBatch.value = batch
                prepared.value = batch.prepared as? [PreparedRow<Prepared>] ?? []
            }
            return index < prepared.value.count ? prepared.value[index] : nil
        }
        func preparedValue(_ batch: CSVRecordBatch, _ index: Int) -> Prepared? {
            preparedRow(batch, index)?.value
        }
        let peek: ((CSVRecordBatch, Int) -> Void)? = ahead.map { ahead in
            { batch, record in
                if let value = preparedValue(batch, record) { ahead(value) }
            }
        }
        do {
            try reader.forEachRecordInBatch(ahead: peek) { record, batch, index in
                if header == nil {
                    let names = (0..<record.fieldCount).map { record.string($0) ?? "" }
                    let mapping = HeaderMapping(names: names, columns: columns)
                    header = mapping
                    fieldCount = mapping.names.count
                    fromSpill = mapping.fromSpill
                    missingRequired = mapping.missingRequired
                    indexes = mapping.indexes
                    idColumns = columns.indices.filter { columns[$0].isID && indexes[$0] >= 0 }
                    blanked = Set(names.indices.filter { blankedInRaw.contains(names[$0]) })
                    mapping.note(in: &account, columns: columns)
                    return
                }
                account.rowsRead += 1
                if fromSpill { record.adoptSpillOrigin() }
                func reject(_ reason: String) {
                    account.rejected += 1
                    rejects.append(
                        RejectedRecord(
                            file: relativePath, line: record.line, kind: kind, reason: reason,
                            raw: !keepRaw
                                ? ""
                                : blankedInRaw.isEmpty
                                    ? record.raw
                                    : record.fieldCount != fieldCount
                                        ? ""
                                        : record.raw(blanking: blanked, from: fromSpill ? 1 : 0)))
                }
                if let missingRequired {
                    reject("missing_column:\(missingRequired)")
                    return
                }
                if record.fieldCount != fieldCount {
                    reject("bad_row:field_count")
                    return
                }
                // One row value for the file, reset per record and changed in
                // place: building one per record retained and released its
                // three references, and so did moving it in and out of an optional.
                if row.record !== record { row = CSVRow(record: record, columns: columns, indexes: indexes) }
                if !idColumns.isEmpty {
                    let checked = idsPrepared ? preparedRow(batch, index)?.badID : nil
                    let bad = checked.map { $0 < 0 ? nil : columns[Int($0)].name } ?? row.firstBadID(idColumns)
                    if let bad {
                        reject("bad_id:\(bad)")
                        return
                    }
                }
                row.rejectReason = nil
                row.fate = nil
                // With `prepare`, every row handed over has its value: the
                // preparing thread's, or (should it have none) one made here
                // by the same function.
                let value =
                    preparedValue(batch, index)
                    ?? prepare.map { $0(CSVPeek(batch: batch, record: index, indexes: indexes)) }
                try body(&row, value)
                if let reason = row.rejectReason {
                    reject(reason)
                } else if let fate = row.fate {
                    account.count(fate)
                }
            }
        } catch let error as CSVReadError {
            throw CSVSource.unreadable(error)
        }
        account.sha256 = digest.hex()
        account.bytesRead = digest.bytes
    }

    /// How a file's header maps the kind's columns.
    struct HeaderMapping: Sendable {
        /// The header's names (a spill file's leading line column named "").
        var names: [String]
        /// Per column of the kind: its field position, or -1 when absent.
        var indexes: [Int]
        /// A partition spill file (see `PartitionRouter`) starts every row
        /// with the row's line in the original file; its raw text follows.
        var fromSpill: Bool
        /// The first required column the header lacks.
        var missingRequired: String?
        /// The first expected column (`Column.expected`) the header lacks.
        var missingExpected: String?

        init(names header: [String], columns: [Column]) {
            var names = header
            fromSpill = names.first == PartitionRouter.lineColumn
            if fromSpill { names[0] = "" }
            self.names = names
            var positions: [String: Int] = [:]
            for (position, name) in names.enumerated() where positions[name] == nil {
                positions[name] = position
            }
            indexes = columns.map { positions[$0.name] ?? -1 }
            missingRequired = zip(columns, indexes).first { $0.0.required && $0.1 < 0 }?.0.name
            missingExpected = zip(columns, indexes).first { $0.0.expected && $0.1 < 0 }?.0.name
        }

        /// Notes on the file's account what its header says (SPEC §1.1,
        /// §10): its unknown columns, the first expected column it lacks,
        /// and the unknown columns that look like a misspelt column the
        /// header lacks (`time_zone` for `timezone`).
        func note(in account: inout FileAccount, columns: [Column]) {
            let known = Set(columns.map(\.name))
            account.unknownColumns = names.filter { !known.contains($0) && !$0.isEmpty }
            account.missingHeaderColumn = missingExpected
            let absent = zip(columns, indexes).filter { $0.1 < 0 }.map(\.0.name)
            account.columnHints = account.unknownColumns.compactMap { unknown in
                ColumnHint.nearest(to: unknown, among: absent).map { ColumnHint(unknown: unknown, expected: $0) }
            }
        }
    }

    /// The preparing thread's side of `prepare`: it reads the header from the
    /// first batch itself, then prepares each row the reader will hand to
    /// its body, and leaves the values in the batch.
    private static func preparing<Prepared: Sendable>(
        _ columns: [Column], _ prepare: @escaping @Sendable (CSVPeek) -> Prepared
    ) -> @Sendable (CSVRecordBatch) -> Void {
        let state = PreparingState()
        let idColumns = columns.indices.filter { columns[$0].isID }
        return { batch in
            var values: [PreparedRow<Prepared>] = []
            values.reserveCapacity(batch.count)
            var first = 0
            if state.header == nil, batch.count > 0 {
                let names = (0..<batch.fieldCount(0)).map { field in
                    batch.fieldRange(0, field).map { String(decoding: batch.bytes[$0], as: UTF8.self) } ?? ""
                }
                state.header = HeaderMapping(names: names, columns: columns)
                values.append(PreparedRow())
                first = 1
            }
            guard let mapping = state.header, mapping.missingRequired == nil else {
                batch.prepared = values
                return
            }
            let fieldCount = mapping.names.count
            let indexes = mapping.indexes
            // One peek per batch, moved from record to record.
            var peek = CSVPeek(batch: batch, record: first, indexes: indexes)
            for record in first..<batch.count {
                guard batch.fieldCount(record) == fieldCount else {
                    values.append(PreparedRow())
                    continue
                }
                peek.record = record
                // A row with a bad id is rejected before its values are looked at.
                var badID: Int16 = -1
                for column in idColumns where !peek.isValidID(column) {
                    badID = Int16(truncatingIfNeeded: column)
                    break
                }
                values.append(PreparedRow(value: badID < 0 ? prepare(peek) : nil, badID: badID))
            }
            batch.prepared = values
        }
    }

    /// What the preparing thread leaves for one record: the kind's prepared
    /// value, and the id check (SPEC §10) done beside the reading thread:
    /// the kind's column position of the first bad id, -1 for none, nil
    /// when not checked (the reading thread then checks). Ids are a few
    /// fields of every row of the largest files, so their scan stays off
    /// the reading thread where the files have a preparing one.
    struct PreparedRow<Value: Sendable>: Sendable {
        var value: Value?
        var badID: Int16?

        init(value: Value? = nil, badID: Int16? = nil) {
            self.value = value
            self.badID = badID
        }
    }

    /// The header as the preparing thread saw it: only that thread touches
    /// it, twice per batch, and the lock lets the compiler check that.
    private final class PreparingState: Sendable {
        private let stored = Mutex<HeaderMapping?>(nil)

        var header: HeaderMapping? {
            get { stored.withLock { $0 } }
            set { stored.withLock { $0 = newValue } }
        }
    }
}

extension CSVSource {
    /// A file that cannot be read whole fails the run (SPEC §9).
    static func unreadable(_ error: CSVReadError) -> DayfoldError {
        DayfoldError(
            .input, error.description,
            fix:
                "the file cannot be read whole; re-export it (task, journal and multi-user health data cannot be partly trusted)"
        )
    }
}

/// Typed access to one row's fields by column position in the kind's list.
/// The first problem found becomes the row's reject reason; later ones are not
/// looked at, so a row is rejected for the first column that is wrong.
struct CSVRow {
    let record: CSVRecord
    let columns: [CSVSource.Column]
    let indexes: [Int]
    var rejectReason: String?
    /// Set by the kind's reader when the fate is known at read time;
    /// nil means the reader will count the row itself later.
    var fate: RowFate?

    private func fieldIndex(_ column: Int) -> Int? {
        let index = indexes[column]
        return index >= 0 ? index : nil
    }

    mutating func fail(_ reason: String) {
        if rejectReason == nil { rejectReason = reason }
    }

    private mutating func present(_ column: Int) -> Int? {
        guard let index = fieldIndex(column), !record.isNull(index) else {
            if columns[column].required { fail("missing_column:\(columns[column].name)") }
            return nil
        }
        return index
    }

    mutating func text(_ column: Int) -> String? {
        guard let index = present(column) else { return nil }
        return record.string(index)
    }

    /// Whether the column is there and not NULL (without taking its bytes).
    func has(_ column: Int) -> Bool {
        guard let index = fieldIndex(column) else { return false }
        return !record.isNull(index)
    }

    /// Where the field's raw bytes lie in `record.bytes` (nil for NULL or an
    /// absent column): for reading fields in place while the buffer is held open.
    func range(_ column: Int) -> Range<Int>? {
        guard let index = fieldIndex(column) else { return nil }
        let start = record.start(index)
        let end = record.end(index)
        return start == end ? nil : start..<end
    }

    /// Calls `body` with the field's raw bytes read in place, without
    /// validation (empty for NULL or an absent column; ask `has` first):
    /// unlike `slice`, it takes no reference to the record's buffer.
    func withField<Result>(_ column: Int, _ body: (Span<UInt8>) -> Result) -> Result {
        guard let index = fieldIndex(column) else { return body(Span()) }
        return record.withField(index, body)
    }

    /// The field's raw bytes, without validation (nil for NULL or an absent column).
    func slice(_ column: Int) -> ArraySlice<UInt8>? {
        guard let index = fieldIndex(column) else { return nil }
        return record.slice(index)
    }

    /// The first of `columns` (positions in the kind's list, all in the
    /// header) whose field is not an acceptable id (`IDBytes`), by name.
    func firstBadID(_ columns: [Int]) -> String? {
        for column in columns {
            let index = indexes[column]
            guard index < record.fieldCount else { continue }
            if !record.isValidID(index) { return self.columns[column].name }
        }
        return nil
    }

    mutating func date(_ column: Int) -> LocalDate? {
        guard let index = present(column) else { return nil }
        guard let value = LocalDate.parseInput(record.bytes, field: record.start(index)..<record.end(index)) else {
            fail("bad_date:\(columns[column].name)")
            return nil
        }
        return value
    }

    mutating func instant(_ column: Int) -> ParsedInstant? {
        guard let index = present(column) else { return nil }
        guard let value = InstantParser.parseInput(record.bytes, field: record.start(index)..<record.end(index)) else {
            fail("bad_instant:\(columns[column].name)")
            return nil
        }
        return value
    }

    /// A number within SPEC §10's bound (`inputNumberLimit`): beyond it, or
    /// too large for a Double, the row is rejected `out_of_range:<col>`.
    mutating func number(_ column: Int) -> Double? {
        guard let index = present(column) else { return nil }
        switch record.number(index) {
        case .value(let value): return value
        case .outOfRange: fail("out_of_range:\(columns[column].name)")
        case .nonNumeric: fail("non_numeric:\(columns[column].name)")
        }
        return nil
    }

    /// An integer within ±`inputNumberLimit` (beyond it, `out_of_range:<col>`).
    mutating func integer(_ column: Int) -> Int64? {
        guard let index = present(column) else { return nil }
        let start = record.start(index)
        let end = record.end(index)
        guard let value = parseInteger(record.bytes, start, end) else {
            // Digits too many for `parseInteger` are a number still, just too large.
            let field = record.bytes[start..<end]
            let digits = field.first == 0x2B || field.first == 0x2D ? field.dropFirst() : field
            let isNumber = !digits.isEmpty && digits.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
            fail("\(isNumber ? "out_of_range" : "non_numeric"):\(columns[column].name)")
            return nil
        }
        guard value.magnitude <= Int64(inputNumberLimit) else {
            fail("out_of_range:\(columns[column].name)")
            return nil
        }
        return value
    }

    /// true/t/1 or false/f/0, in any case. An ASCII field (all but never
    /// otherwise) is matched as bytes; others go through `lowercased()`.
    mutating func bool(_ column: Int) -> Bool? {
        guard let index = present(column) else { return nil }
        let field = record.bytes[record.start(index)..<record.end(index)]
        var value: Bool?
        if field.allSatisfy({ $0 < 0x80 }) {
            func isWord(_ word: String) -> Bool {
                field.count == word.utf8.count
                    && zip(field, word.utf8).allSatisfy { ($0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0) == $1 }
            }
            if isWord("true") || isWord("t") || isWord("1") {
                value = true
            } else if isWord("false") || isWord("f") || isWord("0") {
                value = false
            }
        } else {
            switch record.string(index)?.lowercased() {
            case "true", "t", "1": value = true
            case "false", "f", "0": value = false
            default: value = nil
            }
        }
        if value == nil { fail("bad_bool:\(columns[column].name)") }
        return value
    }

    /// A local wall-clock time `HH:MM` (00:00–23:59, two digits each), as
    /// seconds after midnight; anything else rejects the row (`bad_time:<col>`).
    mutating func clockTime(_ column: Int) -> Int32? {
        guard let index = present(column) else { return nil }
        let field = Array(record.bytes[record.start(index)..<record.end(index)])
        func digit(_ position: Int) -> Int32? {
            let byte = field[position]
            return byte >= 0x30 && byte <= 0x39 ? Int32(byte - 0x30) : nil
        }
        guard field.count == 5, field[2] == 0x3A, let h1 = digit(0), let h2 = digit(1), let m1 = digit(3),
            let m2 = digit(4), h1 * 10 + h2 < 24, m1 < 6
        else {
            fail("bad_time:\(columns[column].name)")
            return nil
        }
        return (h1 * 10 + h2) * 3600 + (m1 * 10 + m2) * 60
    }

    /// A task status (the rule of `choice`, matched as bytes: no String per row).
    mutating func status(_ column: Int) -> TaskStatus? {
        guard let index = present(column) else { return nil }
        if let status = TaskStatus.named(record.bytes[record.start(index)..<record.end(index)]) { return status }
        fail("unknown_status:\(columns[column].name)")
        return nil
    }

    /// The position in `choices` of a value that must be one of them (the
    /// rule of `choice`, without a String for an ASCII field).
    mutating func choiceIndex(_ column: Int, _ choices: Choices) -> Int? {
        guard let index = present(column) else { return nil }
        let field = record.bytes[record.start(index)..<record.end(index)]
        if field.allSatisfy({ $0 < 0x80 }) {
            for (position, name) in choices.names.enumerated()
            where name.bytes.count == field.count && field.elementsEqual(name.bytes) {
                return position
            }
        } else if let text = record.string(index), let position = choices.names.firstIndex(where: { $0.text == text }) {
            return position
        }
        fail("unknown_status:\(columns[column].name)")
        return nil
    }

    /// A value that must be one of `choices`; anything else rejects the row.
    /// An ASCII field is matched as bytes (and the shared String returned);
    /// others are compared as Strings, as Swift compares them.
    mutating func choice(_ column: Int, _ choices: Choices) -> String? {
        guard let index = present(column) else { return nil }
        let field = record.bytes[record.start(index)..<record.end(index)]
        if field.allSatisfy({ $0 < 0x80 }) {
            for (bytes, text) in choices.names where bytes.count == field.count && field.elementsEqual(bytes) {
                return text
            }
        } else if let text = record.string(index), choices.allowed.contains(text) {
            return text
        }
        fail("unknown_status:\(columns[column].name)")
        return nil
    }
}
