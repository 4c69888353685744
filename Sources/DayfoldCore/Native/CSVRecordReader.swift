import CCSV
import Foundation

/// Why a CSV file could not be read whole (the run fails: SPEC §9).
public struct CSVReadError: Error, Sendable, CustomStringConvertible {
    public var path: String
    public var line: Int
    public var column: Int
    public var detail: String
    public var description: String { "\(path):\(line):\(column): \(detail)" }
}

/// The fields of one CSV record, held as byte ranges in a reused buffer so a
/// row costs no allocation. Typed accessors parse straight from the bytes.
public final class CSVRecord {
    /// 1-based physical line where the record starts.
    public internal(set) var line = 0
    var bytes: [UInt8] = []
    var starts: [Int] = []
    var ends: [Int] = []
    /// The record's original text is `rawSource[rawRange]` (shared with its batch).
    var rawSource: [UInt8] = []
    var rawRange: Range<Int> = 0..<0

    public var fieldCount: Int { starts.count }

    /// True when the field is empty (quoted or not): NULL.
    public func isNull(_ index: Int) -> Bool { ends[index] == starts[index] }

    /// Field text, or nil for NULL.
    public func string(_ index: Int) -> String? {
        let start = starts[index]
        let end = ends[index]
        if start == end { return nil }
        return bytes.withUnsafeBufferPointer { buffer in
            String(decoding: UnsafeBufferPointer(rebasing: buffer[start..<end]), as: UTF8.self)
        }
    }

    /// The field's bytes (sharing the record's buffer: use before the next record), nil for NULL.
    public func slice(_ index: Int) -> ArraySlice<UInt8>? {
        let start = starts[index]
        let end = ends[index]
        return start == end ? nil : bytes[start..<end]
    }

    /// The record's original text as bytes (shared with its batch).
    var rawBytes: ArraySlice<UInt8> { rawSource[rawRange] }

    /// The record's original text (its physical lines, without the final line break).
    public var raw: String { String(decoding: rawSource[rawRange], as: UTF8.self) }

    /// Sets the original text (for records not read from CSV, e.g. SQLite rows).
    func setRaw(_ text: String) {
        rawSource = Array(text.utf8)
        rawRange = 0..<rawSource.count
    }
}

/// Streams a CSV file (RFC 4180 through libcsv) record by record, tracking the
/// physical line where each record starts. Lines are fed to libcsv one at a
/// time, which is what lets a record spanning lines keep its start line.
public final class CSVRecordReader {
    private let stream: ByteStream
    public let path: String
    private let parser: UnsafeMutablePointer<csv_parser>
    private let sink = CSVSink()
    private var lineNumber = 0
    private var firstLine = true
    private var pending: [UInt8] = []
    /// A batch is handed over at this many records or bytes (smaller: less memory in flight).
    var batchRecords = 4096
    var batchBytes = 1 << 20

    public init(stream: ByteStream, path: String) throws {
        self.stream = stream
        self.path = path
        parser = UnsafeMutablePointer<csv_parser>.allocate(capacity: 1)
        if csv_init(parser, 0) != 0 {
            parser.deallocate()
            throw CSVReadError(path: path, line: 0, column: 0, detail: "libcsv: cannot initialise the parser")
        }
        // RFC 4180: spaces are data, never trimmed.
        csv_set_space_func(parser, dayfold_csv_no_space)
        // Fields may be large (a 10 MB field must parse): grow the buffer generously.
        csv_set_blk_size(parser, 1 << 16)
    }

    deinit {
        csv_free(parser)
        parser.deallocate()
    }

    /// Calls `body` for every record, the header included (the caller decides).
    /// Parsing runs on its own thread, a few batches ahead of `body`.
    public func forEachRecord(_ body: (CSVRecord) throws -> Void) throws {
        let channel = CSVBatchChannel(capacity: 4)
        let producer = CSVProducer(reader: self, channel: channel)
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global(qos: .userInitiated).async {
            producer.run()
            done.signal()
        }
        defer { done.wait() }
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
                    for index in 0..<batch.count {
                        batch.load(index, into: record)
                        try body(record)
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
        let context = Unmanaged.passUnretained(sink).toOpaque()
        sink.batch = CSVRecordBatch(reserve: batchBytes)
        func flushIfFull() -> Bool {
            guard sink.batch.count >= batchRecords || sink.batch.bytes.count >= batchBytes else { return true }
            let full = sink.batch
            sink.batch = CSVRecordBatch(reserve: batchBytes)
            return emit(full)
        }
        while let chunk = try readChunk() {
            var lineStart = 0
            let count = chunk.count
            while lineStart < count {
                let newline = chunk.withUnsafeBufferPointer { buffer -> Int in
                    guard let base = buffer.baseAddress else { return -1 }
                    guard let hit = memchr(base + lineStart, 0x0A, count - lineStart) else { return -1 }
                    return base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                }
                if newline < 0 {
                    pending.append(contentsOf: chunk[lineStart...])
                    break
                }
                if pending.isEmpty {
                    try feedLine(chunk, lineStart, newline + 1, context)
                } else {
                    pending.append(contentsOf: chunk[lineStart...newline])
                    let line = pending
                    pending.removeAll(keepingCapacity: true)
                    try feedLine(line, 0, line.count, context)
                }
                lineStart = newline + 1
            }
            if !flushIfFull() { return }
        }
        if !pending.isEmpty {
            let line = pending
            pending.removeAll()
            try feedLine(line, 0, line.count, context)
        }
        csv_fini(parser, csvFieldCallback, csvRecordCallback, context)
        sink.finishRecord()
        if sink.batch.count > 0 { _ = emit(sink.batch) }
    }

    private func readChunk() throws -> [UInt8]? {
        do {
            return try stream.nextChunk()
        } catch let error as ByteStreamError {
            throw CSVReadError(
                path: path, line: lineNumber + 1, column: 0, detail: "\(error.kind.rawValue): \(error.detail)")
        }
    }

    private func feedLine(_ buffer: [UInt8], _ start: Int, _ end: Int, _ context: UnsafeMutableRawPointer) throws {
        lineNumber += 1
        var from = start
        if firstLine {
            firstLine = false
            if end - start >= 3 && buffer[start] == 0xEF && buffer[start + 1] == 0xBB && buffer[start + 2] == 0xBF {
                from += 3
            }
        }
        if let bad = firstInvalidUTF8(buffer, from, end) {
            throw CSVReadError(
                path: path, line: lineNumber, column: bad - from + 1,
                detail: "invalid UTF-8 (is this a binary file?); fix: re-export the file as UTF-8 text")
        }
        var contentEnd = end
        while contentEnd > from && (buffer[contentEnd - 1] == 0x0A || buffer[contentEnd - 1] == 0x0D) {
            contentEnd -= 1
        }
        if !sink.inRecord {
            if contentEnd == from { return }  // blank line: skipped, not counted
            sink.inRecord = true
            sink.line = lineNumber
            sink.raw.removeAll(keepingCapacity: true)
        } else {
            sink.raw.append(0x0A)
        }
        sink.raw.append(contentsOf: buffer[from..<contentEnd])
        let length = end - from
        let consumed = buffer.withUnsafeBufferPointer { raw -> Int in
            guard let base = raw.baseAddress else { return 0 }
            return csv_parse(parser, base + from, length, csvFieldCallback, csvRecordCallback, context)
        }
        if consumed != length {
            let message = String(cString: csv_strerror(csv_error(parser)))
            throw CSVReadError(path: path, line: lineNumber, column: consumed + 1, detail: "libcsv: \(message)")
        }
        sink.finishRecord()
    }
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

/// Receives libcsv's callbacks; one per reader. Fields go straight into the
/// current batch; a record is closed once its line has been fed.
final class CSVSink {
    var batch = CSVRecordBatch()
    var inRecord = false
    var complete = false
    var line = 0
    var raw: [UInt8] = []

    func finishRecord() {
        if complete {
            complete = false
            inRecord = false
            batch.endRecord(line: line, raw: raw)
        }
    }
}

private func firstInvalidUTF8(_ buffer: [UInt8], _ start: Int, _ end: Int) -> Int? {
    // Fast path: 8 bytes at a time while they are all ASCII.
    var index = buffer.withUnsafeBytes { raw -> Int in
        var position = start
        while position + 8 <= end {
            if raw.loadUnaligned(fromByteOffset: position, as: UInt64.self) & 0x8080_8080_8080_8080 != 0 { break }
            position += 8
        }
        return position
    }
    while index < end {
        let byte = buffer[index]
        if byte < 0x80 {
            index += 1
            continue
        }
        let length: Int
        if byte & 0xE0 == 0xC0 && byte >= 0xC2 {
            length = 2
        } else if byte & 0xF0 == 0xE0 {
            length = 3
        } else if byte & 0xF8 == 0xF0 && byte <= 0xF4 {
            length = 4
        } else {
            return index
        }
        if index + length > end { return index }
        for offset in 1..<length where buffer[index + offset] & 0xC0 != 0x80 {
            return index
        }
        if length == 3 {
            let second = buffer[index + 1]
            if (byte == 0xE0 && second < 0xA0) || (byte == 0xED && second >= 0xA0) { return index }
        } else if length == 4 {
            let second = buffer[index + 1]
            if (byte == 0xF0 && second < 0x90) || (byte == 0xF4 && second >= 0x90) { return index }
        }
        index += length
    }
    return nil
}

private let csvFieldCallback: @convention(c) (UnsafeMutableRawPointer?, Int, UnsafeMutableRawPointer?) -> Void = {
    data, length, context in
    guard let context else { return }
    let sink = Unmanaged<CSVSink>.fromOpaque(context).takeUnretainedValue()
    sink.batch.appendField(UnsafeRawBufferPointer(start: data, count: data == nil ? 0 : length))
}

private let csvRecordCallback: @convention(c) (Int32, UnsafeMutableRawPointer?) -> Void = { _, context in
    guard let context else { return }
    let sink = Unmanaged<CSVSink>.fromOpaque(context).takeUnretainedValue()
    sink.complete = true
}

extension CSVRecord {
    /// For a row of a partition spill file (`__line,<original text>`): takes
    /// the original line from the first field and drops that prefix from `raw`,
    /// so rejects name the original line and text.
    func adoptSpillOrigin() {
        guard fieldCount > 0, let line = parseInteger(bytes, starts[0], ends[0]) else { return }
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
    init(reader: CSVRecordReader) {
        reader.batchRecords = 512
        reader.batchBytes = 128 << 10
        self.reader = reader
        let producer = CSVProducer(reader: reader, channel: channel)
        let done = self.done
        DispatchQueue.global(qos: .userInitiated).async {
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
