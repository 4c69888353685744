import Foundation

/// A batch of parsed CSV records: the input bytes they were read from (plus
/// any unescaped field or normalised raw text after them), each field's byte
/// range, each record's start line and raw text range. Batches are what the
/// parsing thread hands to the reading thread, so neither waits on the other per row.
final class CSVRecordBatch: @unchecked Sendable {
    let bytes: [UInt8]
    let fields: FieldOffsets
    /// Per record: one past its last field in `fields`.
    let recordEnds: [Int]
    let lines: [Int]
    let rawStarts: [Int]
    let rawEnds: [Int]

    var count: Int { recordEnds.count }
    /// Per-record values a reader's `prepareBatch` computed on the preparing
    /// thread (set before the batch is handed over, read-only after).
    var prepared: (any Sendable)?
    /// Where the input buffer and field table go when the batch does.
    private let recycler: CSVBatchRecycler?

    deinit { recycler?.put(input: bytes, offsets: fields) }

    /// Seals a tokenizer's tables over `input` (the bytes the offsets point
    /// into, taken over without a copy): extras are appended after the input
    /// and their offsets moved there.
    /// The tables' arrays are moved out (not shared), so moving extras' offsets copies nothing.
    init(input: inout [UInt8], tables: inout CSVTokenizer.Tables, recycler: CSVBatchRecycler? = nil) {
        self.recycler = recycler
        var bytes: [UInt8] = []
        swap(&bytes, &input)
        let fields = tables.fields
        tables.fields = FieldOffsets()
        var rawStarts: [Int] = []
        var rawEnds: [Int] = []
        swap(&rawStarts, &tables.rawStarts)
        swap(&rawEnds, &tables.rawEnds)
        if !tables.extras.isEmpty {
            let base = bytes.count
            bytes.append(contentsOf: tables.extras)
            for field in tables.fixFields { fields.shift(field, by: base) }
            for record in tables.fixRaw {
                rawStarts[record] += base
                rawEnds[record] += base
            }
        }
        self.bytes = bytes
        self.fields = fields
        self.recordEnds = tables.recordEnds
        self.lines = tables.lines
        self.rawStarts = rawStarts
        self.rawEnds = rawEnds
    }

    /// Where field `field` of record `record` lies in `bytes` (nil: no such field).
    func fieldRange(_ record: Int, _ field: Int) -> Range<Int>? {
        let first = record == 0 ? 0 : recordEnds[record - 1]
        guard field >= 0, first + field < recordEnds[record] else { return nil }
        return fields.start(first + field)..<fields.end(first + field)
    }

    /// The number of fields of record `record`.
    func fieldCount(_ record: Int) -> Int { recordEnds[record] - (record == 0 ? 0 : recordEnds[record - 1]) }

    /// Points `record` at record `index` of this batch (nothing is copied).
    func load(_ index: Int, into record: CSVRecord) {
        let fieldStart = index == 0 ? 0 : recordEnds[index - 1]
        record.load(
            self, index: index, fields: fieldStart..<recordEnds[index], line: lines[index],
            raw: rawStarts[index]..<rawEnds[index])
    }
}

/// What passes between the parsing thread, the preparing thread and the reader.
enum CSVBatchItem {
    case batch(CSVRecordBatch)
    case failure(any Error)
    case end
}

/// A bounded hand-over of batches between the parsing thread and the reader.
typealias CSVBatchChannel = BoundedQueue<CSVBatchItem>
