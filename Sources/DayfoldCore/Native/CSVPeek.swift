/// A row as the preparing stage sees it (see `CSVSource.read`), before the
/// reading thread does: fields by column position in the kind's list, as
/// ranges of the batch's bytes, and the typed values a kind prepares read
/// from them in place. The batch's buffer and field table are held here
/// once per batch, and the record's first field once per record: a field is
/// then two loads (no slice to retain and release per field).
struct CSVPeek {
    /// The batch's bytes: every field is a range of them.
    let bytes: [UInt8]
    private let fields: FieldOffsets
    private let batch: CSVRecordBatch
    let indexes: [Int]
    /// Lookups remembered from row to row within the batch.
    private let memo = Memo()
    /// The record's first field in `fields`, and its field count.
    private var first = 0
    private var fieldCount = 0

    /// The record of the batch the peek shows.
    var record: Int {
        didSet { locate() }
    }

    init(batch: CSVRecordBatch, record: Int, indexes: [Int]) {
        self.batch = batch
        bytes = batch.bytes
        fields = batch.fields
        self.indexes = indexes
        self.record = record
        locate()
    }

    /// (A peek may be made for a record past the batch's last, e.g. after a
    /// header-only batch: it shows no fields until moved to a record.)
    private mutating func locate() {
        guard record < batch.count else {
            fieldCount = 0
            return
        }
        first = record == 0 ? 0 : batch.recordEnds[record - 1]
        fieldCount = batch.recordEnds[record] - first
    }

    /// Where the field lies in `bytes` (nil for NULL or an absent column).
    func field(_ column: Int) -> Range<Int>? {
        let index = indexes[column]
        guard index >= 0, index < fieldCount else { return nil }
        let start = fields.start(first + index)
        let end = fields.end(first + index)
        return start == end ? nil : start..<end
    }

    /// The field's text (nil for NULL or an absent column).
    func string(_ column: Int) -> String? { field(column).map { String(decoding: bytes[$0], as: UTF8.self) } }

    /// Whether the field is an acceptable id (SPEC §10; NULL is one).
    func isValidID(_ column: Int) -> Bool {
        field(column).map { IDBytes.isValid(bytes, $0) } ?? true
    }

    /// The field's `ByteKeyTable` hash (nil for NULL).
    func hash(_ column: Int) -> UInt64? { field(column).map { ByteKeyTable.hash(bytes, field: $0) } }

    /// The field as an input date (nil for NULL or not a date).
    func date(_ column: Int) -> LocalDate? { field(column).flatMap { LocalDate.parseInput(bytes, field: $0) } }

    /// The field as an input instant (nil for NULL or not an instant).
    func instant(_ column: Int) -> ParsedInstant? {
        field(column).flatMap { InstantParser.parseInput(bytes, field: $0) }
    }

    /// Whether the field is NULL or an input instant (its value unused).
    func isInstantOrNull(_ column: Int) -> Bool {
        field(column).map { InstantParser.parseInput(bytes, field: $0) != nil } ?? true
    }

    /// The field's `Fingerprint` (nil for NULL): the value a fingerprint of
    /// the same bytes taken from a slice has.
    func fingerprint(_ column: Int) -> UInt64? {
        guard let field = field(column) else { return nil }
        var print = Fingerprint()
        print.combine(bytes, field: field)
        return print.value
    }

    /// The field as a task status (nil for NULL or another word).
    func status(_ column: Int) -> TaskStatus? { field(column).flatMap { TaskStatus.named(bytes, field: $0) } }

    /// The field as an input number (nil for NULL).
    func number(_ column: Int) -> InputNumber? { field(column).map { parseInputNumber(bytes, field: $0) } }

    /// Mixes the field into `key` (NULL as `Fingerprint.combine` mixes nil).
    func combine(_ column: Int, into key: inout Fingerprint) { key.combine(bytes, field: field(column)) }

    /// The relationship the field names (its index in `lookup`), the last
    /// id looked up remembered: a relationship's rows come together in the
    /// exports, so most rows compare the id instead of hashing and probing.
    func relationship(_ column: Int, in lookup: RelationshipLookup) -> Int? {
        guard let id = field(column) else { return nil }
        if let known = memo.relationship.value(for: bytes, field: id) { return known }
        let found = lookup.relationship(bytes, field: id)
        memo.relationship.store(bytes[id], found)
        return found
    }

    /// What a peek remembers (held by reference: a peek is passed by value;
    /// only the preparing thread of its batch touches it, so without the
    /// run-time exclusivity check, see `LoopState`).
    private final class Memo {
        @exclusivity(unchecked) var relationship = LastKeyCache<Int?>()
    }
}
