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
    var rawBytes: [UInt8] = []

    public var fieldCount: Int { starts.count }

    func reset() {
        bytes.removeAll(keepingCapacity: true)
        starts.removeAll(keepingCapacity: true)
        ends.removeAll(keepingCapacity: true)
    }

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

    /// Compares the field with an ASCII literal without making a String.
    public func fieldEquals(_ index: Int, _ literal: StaticString) -> Bool {
        let length = ends[index] - starts[index]
        guard length == literal.utf8CodeUnitCount else { return false }
        return literal.withUTF8Buffer { lit in
            var offset = 0
            let base = starts[index]
            while offset < length {
                if bytes[base + offset] != lit[offset] { return false }
                offset += 1
            }
            return true
        }
    }

    /// The record's original text (its physical lines, without the final line break).
    public var raw: String { String(decoding: rawBytes, as: UTF8.self) }
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
    public func forEachRecord(_ body: (CSVRecord) throws -> Void) throws {
        let context = Unmanaged.passUnretained(sink).toOpaque()
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
                    try feedLine(chunk, lineStart, newline + 1, context, body)
                } else {
                    pending.append(contentsOf: chunk[lineStart...newline])
                    let line = pending
                    pending.removeAll(keepingCapacity: true)
                    try feedLine(line, 0, line.count, context, body)
                }
                lineStart = newline + 1
            }
        }
        if !pending.isEmpty {
            let line = pending
            pending.removeAll()
            try feedLine(line, 0, line.count, context, body)
        }
        csv_fini(parser, csvFieldCallback, csvRecordCallback, context)
        try deliver(body)
    }

    private func readChunk() throws -> [UInt8]? {
        do {
            return try stream.nextChunk()
        } catch let error as ByteStreamError {
            throw CSVReadError(path: path, line: lineNumber + 1, column: 0, detail: "\(error.kind.rawValue): \(error.detail)")
        }
    }

    private func feedLine(
        _ buffer: [UInt8], _ start: Int, _ end: Int, _ context: UnsafeMutableRawPointer,
        _ body: (CSVRecord) throws -> Void
    ) throws {
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
        while contentEnd > from && (buffer[contentEnd - 1] == 0x0A || buffer[contentEnd - 1] == 0x0D) { contentEnd -= 1 }
        if !sink.inRecord {
            if contentEnd == from { return }  // blank line: skipped, not counted
            sink.inRecord = true
            sink.record.line = lineNumber
            sink.record.rawBytes.removeAll(keepingCapacity: true)
        } else {
            sink.record.rawBytes.append(0x0A)
        }
        sink.record.rawBytes.append(contentsOf: buffer[from..<contentEnd])
        let length = end - from
        let consumed = buffer.withUnsafeBufferPointer { raw -> Int in
            guard let base = raw.baseAddress else { return 0 }
            return csv_parse(parser, base + from, length, csvFieldCallback, csvRecordCallback, context)
        }
        if consumed != length {
            let message = String(cString: csv_strerror(csv_error(parser)))
            throw CSVReadError(path: path, line: lineNumber, column: consumed + 1, detail: "libcsv: \(message)")
        }
        try deliver(body)
    }

    private func deliver(_ body: (CSVRecord) throws -> Void) throws {
        if sink.complete {
            sink.complete = false
            sink.inRecord = false
            try body(sink.record)
            sink.record.reset()
        }
    }
}

/// Receives libcsv's callbacks; one per reader.
final class CSVSink {
    let record = CSVRecord()
    var inRecord = false
    var complete = false
}

private func firstInvalidUTF8(_ buffer: [UInt8], _ start: Int, _ end: Int) -> Int? {
    var index = start
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
    let record = sink.record
    let start = record.bytes.count
    if let data, length > 0 {
        record.bytes.append(contentsOf: UnsafeRawBufferPointer(start: data, count: length))
    }
    record.starts.append(start)
    record.ends.append(record.bytes.count)
}

private let csvRecordCallback: @convention(c) (Int32, UnsafeMutableRawPointer?) -> Void = { _, context in
    guard let context else { return }
    let sink = Unmanaged<CSVSink>.fromOpaque(context).takeUnretainedValue()
    sink.complete = true
}
