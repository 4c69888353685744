import Foundation

/// Why a CSV file could not be read whole (the run fails: SPEC §9).
public struct CSVReadError: Error, Sendable, CustomStringConvertible {
    public var path: String
    public var line: Int
    public var column: Int
    public var detail: String
    public var description: String { "\(path):\(line):\(column): \(detail)" }
}

/// The fields of one CSV record: byte ranges of its batch's buffer, read
/// through the batch's own field tables, so moving to the next record copies
/// nothing (the tables and buffer are taken once per batch). Typed accessors
/// parse straight from the bytes.
///
/// A record is used by one thread, the reader's, one row at a time: its
/// properties skip the run-time exclusivity check (see `LoopState`), which
/// cost a check per field read in every ingest loop.
public final class CSVRecord {
    /// 1-based physical line where the record starts.
    @exclusivity(unchecked) public internal(set) var line = 0
    /// The buffer the field ranges point into.
    @exclusivity(unchecked) private(set) var bytes: [UInt8] = [] {
        didSet { buffer = bytes.withUnsafeBufferPointer { $0 } }
    }
    /// `bytes`' storage, taken whenever `bytes` is set (it is not changed in
    /// place while set, and the record holds it): `withField` reads fields
    /// through it, where taking a slice of `bytes`, or `bytes` itself,
    /// retained and released the buffer for every row (an atomic update of a
    /// count the batch's other readers share; 3–4 % of a run's CPU).
    @exclusivity(unchecked) private var buffer = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
    @exclusivity(unchecked) private var fields = FieldOffsets(capacity: 16)
    /// This record's first field in `fields`.
    @exclusivity(unchecked) private var firstField = 0
    @exclusivity(unchecked) public private(set) var fieldCount = 0
    /// The batch whose tables are loaded (nil for a record built by hand).
    @exclusivity(unchecked) private(set) var batch: CSVRecordBatch?
    /// This record's position in `batch`.
    @exclusivity(unchecked) private(set) var index = 0
    /// The record's original text is `rawSource[rawRange]` (shared with its batch).
    @exclusivity(unchecked) var rawSource: [UInt8] = []
    @exclusivity(unchecked) var rawRange: Range<Int> = 0..<0

    /// Where field `index` starts and ends in `bytes`.
    @inline(__always) func start(_ index: Int) -> Int { fields.start(firstField + index) }
    @inline(__always) func end(_ index: Int) -> Int { fields.end(firstField + index) }

    /// Points this record at record `index` of `batch`; the batch's buffer
    /// and tables are taken only when the batch changes.
    func load(_ batch: CSVRecordBatch, index: Int, fields: Range<Int>, line: Int, raw: Range<Int>) {
        if self.batch !== batch {
            // The old batch's buffers are let go of before the batch itself,
            // so that it recycles them unshared.
            bytes = batch.bytes
            self.fields = batch.fields
            rawSource = batch.bytes
            self.batch = batch
        }
        self.index = index
        firstField = fields.lowerBound
        fieldCount = fields.count
        self.line = line
        rawRange = raw
    }

    /// Adds a field (records built by hand, e.g. from SQLite rows).
    func appendField(_ value: some Collection<UInt8>) {
        if batch != nil || firstField != 0 {
            batch = nil
            bytes = []
            fields = FieldOffsets(capacity: 16)
            firstField = 0
            fieldCount = 0
        }
        let start = bytes.count
        bytes.append(contentsOf: value)
        fields.append(start, bytes.count)
        fieldCount += 1
    }

    /// True when the field is empty (quoted or not): NULL.
    public func isNull(_ index: Int) -> Bool { end(index) == start(index) }

    /// Field text, or nil for NULL.
    public func string(_ index: Int) -> String? {
        let start = start(index)
        let end = end(index)
        if start == end { return nil }
        return bytes.withUnsafeBufferPointer { buffer in
            String(decoding: UnsafeBufferPointer(rebasing: buffer[start..<end]), as: UTF8.self)
        }
    }

    /// Calls `body` with field `index`'s bytes read in place (empty for
    /// NULL), taking no reference to the buffer (see `buffer`).
    @inline(__always) func withField<Result>(_ index: Int, _ body: (Span<UInt8>) -> Result) -> Result {
        body(UnsafeBufferPointer(rebasing: buffer[start(index)..<end(index)]).span)
    }

    /// The field's bytes (sharing the record's buffer: use before the next record), nil for NULL.
    public func slice(_ index: Int) -> ArraySlice<UInt8>? {
        let start = start(index)
        let end = end(index)
        return start == end ? nil : bytes[start..<end]
    }

    /// Where field `index` lies in `bytes`.
    func range(_ index: Int) -> Range<Int> { start(index)..<end(index) }

    /// Whether field `index` is an acceptable id (SPEC §10), read in place.
    func isValidID(_ index: Int) -> Bool { IDBytes.isValid(UnsafeBufferPointer(rebasing: buffer[range(index)])) }

    /// Field `index` as an input number, read in place.
    func number(_ index: Int) -> InputNumber {
        parseInputNumber(UnsafeBufferPointer(rebasing: buffer[range(index)]), 0, end(index) - start(index))
    }

    /// The record's original text as bytes (shared with its batch).
    var rawBytes: ArraySlice<UInt8> { rawSource[rawRange] }

    /// The record's original text (its physical lines, without the final line break).
    public var raw: String { String(decoding: rawSource[rawRange], as: UTF8.self) }

    /// The record written again as CSV with the fields at `blanked` left
    /// empty: the raw text of a rejected row whose file holds columns that
    /// must reach no output (SPEC §11.1's tokens and payloads).
    /// `from`: the first field of the original record (1 in a partition's
    /// spill, whose first field is the original line number).
    func raw(blanking blanked: Set<Int>, from first: Int = 0) -> String {
        var output: [UInt8] = []
        for index in first..<max(first, fieldCount) {
            if index > first { output.append(0x2C) }
            if blanked.contains(index) { continue }
            CSVFieldQuoting.append(bytes[range(index)].span, into: &output)
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Sets the original text (for records not read from CSV, e.g. SQLite rows).
    func setRaw(_ text: String) {
        rawSource = Array(text.utf8)
        rawRange = 0..<rawSource.count
    }
}

/// Streams a CSV file (RFC 4180, see `CSVTokenizer`) record by record,
/// tracking the physical line where each record starts. Parsing runs on its
/// own thread a few batches ahead of the reader; a batch keeps the input bytes
/// its records were read from, so a field costs two offsets, not a copy.
public final class CSVRecordReader {
    private let stream: ByteStream
    public let path: String
    /// A batch is handed over at this many records or bytes (smaller: less memory in flight).
    var batchRecords = 4096
    var batchBytes = 1 << 20
    /// Runs on each batch, on a thread of its own between the parsing
    /// thread and the reader: per-row work that needs no state of the reader
    /// (parsing values, hashing ids) moves off the reading thread, which is
    /// the slower one. A third stage, not more work for the parsing thread,
    /// so that neither of the two becomes the slow one instead.
    var prepareBatch: (@Sendable (CSVRecordBatch) -> Void)?

    /// The longest record read (SPEC §10): a longer one, or a file that
    /// never ends a record (a file of NUL bytes, a quote never closed), is an
    /// unreadable file, reported with the line where the record starts. The
    /// buffer never holds much more than this, whatever the file's size.
    public static let defaultRecordLimit = 64 << 20
    var recordLimit = CSVRecordReader.defaultRecordLimit

    public init(stream: ByteStream, path: String, recordLimit: Int = CSVRecordReader.defaultRecordLimit) throws {
        self.stream = stream
        self.path = path
        self.recordLimit = recordLimit
    }

    /// How many records ahead of `body` the `ahead` hook of `forEachRecord` sees.
    static let lookahead = 16

    /// Calls `body` for every record, the header included (the caller decides).
    /// Parsing runs on its own thread, a few batches ahead of `body`. `ahead`
    /// sees each record `lookahead` records before `body` does (within its
    /// batch), to start loading what `body` will look up: probes of tables of
    /// millions of ids are cache misses, and issued early they overlap.
    func forEachRecord(
        ahead: ((CSVRecordBatch, Int) -> Void)? = nil, _ body: (CSVRecord) throws -> Void
    ) throws {
        try forEachRecordInBatch(ahead: ahead) { record, _, _ in try body(record) }
    }

    /// `forEachRecord`, with each record's batch and position in it passed
    /// along: a reader that keeps per-batch values (prepared rows) finds them
    /// without taking the record's batch reference once per row.
    func forEachRecordInBatch(
        ahead: ((CSVRecordBatch, Int) -> Void)? = nil, _ body: (CSVRecord, CSVRecordBatch, Int) throws -> Void
    ) throws {
        let channel = CSVBatchChannel(capacity: 4)
        let parsed = prepareBatch == nil ? channel : CSVBatchChannel(capacity: 4)
        let producer = CSVProducer(reader: self, channel: parsed)
        let done = DispatchSemaphore(value: 0)
        startProducerThread {
            producer.run()
            done.signal()
        }
        var threads = 1
        if let prepareBatch {
            let preparer = CSVPreparer(input: parsed, output: channel, prepare: prepareBatch)
            startProducerThread {
                preparer.run()
                done.signal()
            }
            threads += 1
        }
        defer { for _ in 0..<threads { done.wait() } }
        let record = CSVRecord()
        while true {
            switch channel.pop() {
            case .end:
                return
            case .failure(let error):
                channel.cancel()
                throw error
            case .batch(let batch):
                do {
                    let distance = CSVRecordReader.lookahead
                    if let ahead {
                        for index in 0..<min(distance, batch.count) { ahead(batch, index) }
                    }
                    for index in 0..<batch.count {
                        if let ahead, index + distance < batch.count { ahead(batch, index + distance) }
                        batch.load(index, into: record)
                        try body(record, batch, index)
                    }
                } catch {
                    channel.cancel()
                    throw error
                }
            }
        }
    }

    /// Parses the whole stream into batches (on the producer thread).
    fileprivate func produce(_ emit: (CSVRecordBatch) -> Bool) throws {
        // Readers of large batches recycle them; a merge's many small cursors
        // do not keep spare buffers.
        let recycler = batchBytes >= 1 << 19 ? CSVBatchRecycler() : nil
        var tokenizer = CSVTokenizer(path: path)
        var tables = CSVTokenizer.Tables()
        var buffer: [UInt8] = []
        var scanFrom = 0
        var atEnd = false
        var first = true
        // When a record outgrows the buffer, read until the buffer has doubled
        // before scanning again (a 10 MB field is scanned a few times, not per chunk).
        var readUntil = 0
        while !atEnd {
            if try !readChunk(into: &buffer, tokenizer.line) { atEnd = true }
            if first {
                if buffer.count < 3 && !atEnd { continue }
                first = false
                if buffer.count >= 3 && buffer[0] == 0xEF && buffer[1] == 0xBB && buffer[2] == 0xBF { scanFrom = 3 }
            }
            if !atEnd && buffer.count < readUntil { continue }
            let recordsBefore = tables.count
            let consumed = try buffer.withUnsafeBytes { raw in
                try tokenizer.scan(raw, from: scanFrom, atEnd: atEnd, into: &tables)
            }
            try checkRecordLimit(
                tables, from: recordsBefore, scanned: consumed - scanFrom, pending: buffer.count - consumed,
                line: tokenizer.line)
            // Read on until the buffer has doubled, but not past the limit:
            // the record is scanned once it is known to be too long.
            readUntil = consumed == scanFrom ? min(buffer.count * 2, consumed + recordLimit + 1) : 0
            scanFrom = consumed
            if atEnd || tables.count >= batchRecords || consumed >= batchBytes {
                guard tables.count > 0 else { continue }
                // Room for a batch and the chunk that completes it; a batch keeps
                // this capacity, so a merge's many small cursors stay small.
                var input = recycler?.input(capacity: 2 * batchBytes) ?? []
                input.append(contentsOf: buffer[consumed...])
                buffer.removeSubrange(consumed...)
                swap(&input, &buffer)
                if recycler == nil { buffer.reserveCapacity(2 * batchBytes) }
                let fields = tables.fields.count
                let records = tables.count
                let batch = CSVRecordBatch(input: &input, tables: &tables, recycler: recycler)
                // The next batch's tables start at this one's size: growing
                // them by doubling copied every offset again and again.
                tables = CSVTokenizer.Tables(
                    reservingFields: fields + fields / 4, records: records + records / 4, recycler: recycler)
                scanFrom = 0
                if !emit(batch) { return }
            }
        }
    }

    /// Throws when the record still open (`pending` bytes from `line` on)
    /// or one just completed is longer than `recordLimit`. Completed records
    /// are looked at only when the scan covered more than the limit.
    private func checkRecordLimit(
        _ tables: CSVTokenizer.Tables, from first: Int, scanned: Int, pending: Int, line: Int
    ) throws {
        func tooLong(_ line: Int) -> CSVReadError {
            CSVReadError(
                path: path, line: line, column: 1,
                detail:
                    "record longer than \(recordLimit >> 20 > 0 ? "\(recordLimit >> 20) MiB" : "\(recordLimit) bytes") "
                    + "(a quote never closed, or not a CSV file?); fix: check that the file is the CSV export")
        }
        if pending > recordLimit { throw tooLong(line) }
        guard scanned > recordLimit else { return }
        for record in first..<tables.count where tables.rawEnds[record] - tables.rawStarts[record] > recordLimit {
            throw tooLong(tables.lines[record])
        }
    }

    private func readChunk(into buffer: inout [UInt8], _ line: Int) throws -> Bool {
        do {
            return try stream.append(to: &buffer)
        } catch let error as ByteStreamError {
            throw CSVReadError(path: path, line: line, column: 0, detail: "\(error.kind.rawValue): \(error.detail)")
        }
    }
}

/// Parsing runs on a thread of its own, not on a dispatch queue: readers are
/// often dispatch workers themselves (parallel jobs, merges of many files),
/// and a producer waiting for a free dispatch thread would stall its reader.
func startProducerThread(_ body: @escaping @Sendable () -> Void) {
    let thread = Thread(block: body)
    thread.stackSize = 1 << 20
    thread.start()
}

/// Runs a reader's parsing on the producer thread and reports how it ended.
final class CSVProducer: @unchecked Sendable {
    let reader: CSVRecordReader
    let channel: CSVBatchChannel

    init(reader: CSVRecordReader, channel: CSVBatchChannel) {
        self.reader = reader
        self.channel = channel
    }

    func run() {
        do {
            try reader.produce { self.channel.push(.batch($0)) }
            _ = channel.push(.end)
        } catch {
            _ = channel.push(.failure(error))
        }
    }
}

/// The stage between parsing and reading (see `CSVRecordReader.prepareBatch`).
final class CSVPreparer: @unchecked Sendable {
    let input: CSVBatchChannel
    let output: CSVBatchChannel
    let prepare: @Sendable (CSVRecordBatch) -> Void

    init(input: CSVBatchChannel, output: CSVBatchChannel, prepare: @escaping @Sendable (CSVRecordBatch) -> Void) {
        self.input = input
        self.output = output
        self.prepare = prepare
    }

    /// Passes every item on, preparing batches; stops at the end or a
    /// failure, or when the reader gives up (then the parser is stopped too).
    func run() {
        while true {
            let item = input.pop()
            var last = true
            if case .batch(let batch) = item {
                prepare(batch)
                last = false
            }
            guard output.push(item) else {
                input.cancel()
                return
            }
            if last { return }
        }
    }
}

extension CSVRecord {
    /// For a row of a partition spill file (`__line,<original text>`): takes
    /// the original line from the first field and drops that prefix from `raw`,
    /// so rejects name the original line and text.
    func adoptSpillOrigin() {
        guard fieldCount > 0, let line = parseInteger(bytes, start(0), end(0)) else { return }
        self.line = Int(line)
        if let comma = rawSource[rawRange].firstIndex(of: 0x2C) {
            rawRange = (comma + 1)..<rawRange.upperBound
        }
    }
}

/// Pull-style reading of a CSV file (for merging sorted files): `next()`
/// returns the following record, or nil at the end. The record object is
/// reused: read it before calling `next()` again.
final class CSVRecordCursor {
    private let channel = CSVBatchChannel(capacity: 1)
    private let done = DispatchSemaphore(value: 0)
    private let reader: CSVRecordReader
    private var batch: CSVRecordBatch?
    private var index = 0
    private var finished = false
    let record = CSVRecord()

    /// Merging many files at once: small batches, one in flight per file.
    /// A merge reads one file per partition, two tables at a time, so what
    /// each cursor holds (about three batches) is multiplied by twice the
    /// partition count: at 128 KB a batch, a drop twice as large (twice the
    /// partitions) raised the merges' peak by about 60 MB.
    init(reader: CSVRecordReader) {
        reader.batchRecords = 256
        reader.batchBytes = 48 << 10
        self.reader = reader
        let producer = CSVProducer(reader: reader, channel: channel)
        let done = self.done
        startProducerThread {
            producer.run()
            done.signal()
        }
    }

    deinit {
        channel.cancel()
        done.wait()
    }

    func next() throws -> CSVRecord? {
        while true {
            if let batch, index < batch.count {
                batch.load(index, into: record)
                index += 1
                return record
            }
            if finished { return nil }
            switch channel.pop() {
            case .end:
                finished = true
                return nil
            case .failure(let error):
                finished = true
                throw error
            case .batch(let next):
                batch = next
                index = 0
            }
        }
    }
}
