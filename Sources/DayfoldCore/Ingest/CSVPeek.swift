/// A row as the preparing stage sees it (see `CSVSource.read`), before the
/// reading thread does: raw field bytes by column position in the kind's list.
/// The batch's buffer and field table are held here once per batch, and the
/// record's first field once per record: a field is then two loads and a
/// pointer into the buffer (no reference to retain and release per field).
struct CSVPeek {
    /// The batch's buffer, valid while the preparing thread's pass over the
    /// batch lasts (`CSVSource.preparing` holds it open).
    private let base: UnsafePointer<UInt8>?
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

    /// `base`: `batch.bytes`' storage, open for as long as the peek is used.
    init(batch: CSVRecordBatch, base: UnsafePointer<UInt8>?, record: Int, indexes: [Int]) {
        self.batch = batch
        self.base = base
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

    /// The field's bytes in place (nil for NULL or an absent column): no
    /// reference to the buffer is taken, so nothing to retain and release.
    func field(_ column: Int) -> UnsafeBufferPointer<UInt8>? {
        let index = indexes[column]
        guard index >= 0, index < fieldCount, let base else { return nil }
        let start = fields.start(first + index)
        let end = fields.end(first + index)
        return start == end ? nil : UnsafeBufferPointer(start: base + start, count: end - start)
    }

    /// The relationship the field names (its index in `lookup`), the last
    /// id looked up remembered: a relationship's rows come together in the
    /// exports, so most rows compare the id instead of hashing and probing.
    func relationship(_ column: Int, in lookup: RelationshipLookup) -> Int? {
        guard let id = field(column) else { return nil }
        if let known = memo.relationship.value(for: id) { return known }
        let found = lookup.relationship(id)
        memo.relationship.store(id, found)
        return found
    }

    /// What a peek remembers (held by reference: a peek is passed by value;
    /// only the preparing thread of its batch touches it).
    private final class Memo {
        var relationship = LastKeyCache<Int?>()
    }
}
