/// A row as the preparing stage sees it (see `CSVSource.read`), before the
/// reading thread does: raw field bytes by column position in the kind's list.
struct CSVPeek {
    let batch: CSVRecordBatch
    var record: Int
    let indexes: [Int]

    /// The field's bytes (nil for NULL or an absent column).
    func slice(_ column: Int) -> ArraySlice<UInt8>? {
        guard let range = batch.fieldRange(record, indexes[column]), !range.isEmpty else { return nil }
        return batch.bytes[range]
    }
}
