import CCSV
import CKernels

/// The reader of every CSV record the plain-record scanner leaves (a lone
/// CR or a CR run, invalid UTF-8, line breaks inside quotes, a quote
/// followed by other data, blank lines, a record cut by the buffer): libcsv (Debian's libcsv3) parses the fields, and this
/// wrapper adds what libcsv does not know (where a record starts and ends in
/// the buffer, its line, its raw text, UTF-8) and keeps dayfold's rules
/// where libcsv's differ (SPEC §9; `CSVTokenizerTests` checks the whole
/// reader against a reference parser of these rules).
///
/// libcsv runs in its default, non-strict mode (options 0) with no byte
/// counted as a space. Those are the rules dayfold reads by:
/// - spaces are data, never trimmed (libcsv trims spaces and tabs around an
///   unquoted field unless told that no byte is a space: `dayfold_csv_no_space`);
/// - a quote inside an unquoted field is data, and after a closing quote
///   `""` is one quote and any byte other than `,` CR LF keeps the quote as
///   data (`CSV_STRICT` would fail both, so it is not set);
/// - an empty field, quoted or not, is NULL: both arrive as zero bytes
///   (`CSV_EMPTY_IS_NULL` would only tell the two apart, so it is not set,
///   nor `CSV_APPEND_NULL`: fields are copied by length);
/// - a quoted field still open at the end of the file takes the rest of it
///   (libcsv's `csv_fini` without `CSV_STRICT_FINI`).
///
/// Where libcsv differs, the wrapper keeps dayfold's rule:
/// - a record ends at LF, a CR run before it dropped. libcsv ends a row at
///   any CR; a lone CR run inside a line (not followed by LF) separates
///   fields in dayfold, so when libcsv ends a row at a CR the wrapper looks
///   past the CR run: an LF (or the end of the file) ends the record,
///   anything else starts libcsv's next row, whose fields join this record;
/// - a line of only CR/LF between records is skipped and not counted as a
///   record: libcsv skips it too, but the line count is the wrapper's (it
///   feeds libcsv one piece per line break, so it knows each LF);
/// - the raw text (what rejects quote) is the record's bytes from its first
///   line to before its last line break, and joins lines with LF where a
///   quoted field holds CR LF; a quoted field open at the end of the file
///   drops the file's last line break from it;
/// - every byte is checked to be UTF-8 before libcsv sees it; the first
///   invalid one fails the file with its line and column (libcsv takes any byte).
///
/// libcsv copies each field into its own buffer and hands it over in a
/// callback; the callbacks are C functions of the CCSV shim that append it
/// to a C buffer (a call into Swift per field, with its retains and
/// exclusivity checks, cost a fifth of the time of a CRLF file), and the
/// record's fields go to the batch's extras in one copy once it has ended.
/// So a record read here costs a copy of its fields (the plain records,
/// nearly all of a file, are ranges of the input). libcsv grows its buffer by a fixed step (128
/// bytes); the wrapper sets the step before each piece to at least the piece
/// and the buffer's size, so a 60 MB field is grown a few times, not half a
/// million.
final class LibCSVParser {
    /// How a record attempt ended.
    enum Step {
        case record(next: Int)
        case incomplete
        case finished
    }

    let path: String
    private let parser: UnsafeMutablePointer<csv_parser>
    /// Where libcsv's callbacks (C functions of the CCSV shim) put the fields
    /// of the record being read; copied into the tables once it has ended.
    private let sink: UnsafeMutablePointer<dayfold_csv_sink>
    private let context: UnsafeMutableRawPointer

    private static let lf: UInt8 = 0x0A
    private static let cr: UInt8 = 0x0D
    /// libcsv's own step (MEM_BLK_SIZE).
    private static let smallestStep = 128
    /// A field buffer grown past this by a long record is let go of after it.
    private static let keptBuffer = 1 << 20

    init(path: String) {
        self.path = path
        parser = .allocate(capacity: 1)
        // csv_init fails only for a NULL parser; options 0: libcsv's default grammar (see above).
        _ = csv_init(parser, 0)
        csv_set_space_func(parser, dayfold_csv_no_space)
        sink = .allocate(capacity: 1)
        sink.initialize(to: dayfold_csv_sink())
        context = UnsafeMutableRawPointer(sink)
    }

    deinit {
        csv_free(parser)
        parser.deallocate()
        dayfold_csv_sink_free(sink)
        sink.deallocate()
    }

    /// Reads the record at `start` (after any blank lines) into `tables`;
    /// `line` is the physical line at `start` and is moved past the record.
    /// With `atEnd` the buffer holds the rest of the input, so nothing is
    /// incomplete; otherwise a record the buffer does not hold whole is
    /// `.incomplete`, with `line` and `tables` as they were.
    func record(
        _ p: UnsafeRawBufferPointer, _ start: Int, _ atEnd: Bool, _ tables: inout CSVTokenizer.Tables,
        line: inout Int
    ) throws -> Step {
        let end = p.count
        let entryLine = line
        var position = start
        // Blank lines (only CR/LF) between records are skipped and not counted.
        var firstByte: Int
        while true {
            var i = position
            while i < end && p[i] == Self.cr { i += 1 }
            if i == end {
                if atEnd { return .finished }
                line = entryLine
                return .incomplete
            }
            if p[i] != Self.lf {
                firstByte = i
                break
            }
            line += 1
            position = i + 1
        }
        guard let base = p.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return .finished }
        let recordStart = position
        let recordLine = line
        guard let read = try fields(base, recordStart, firstByte, end, atEnd, &line) else {
            line = entryLine
            return .incomplete
        }
        // The fields libcsv handed over, after the batch's extras.
        let extrasBase = tables.extras.count
        let sunk = sink.pointee
        tables.extras.append(contentsOf: UnsafeBufferPointer(start: sunk.bytes, count: sunk.count))
        if let ends = sunk.ends {
            var fieldStart = extrasBase
            for field in 0..<sunk.fields {
                let fieldEnd = extrasBase + Int(ends[field])
                tables.fields.append(fieldStart, fieldEnd)
                tables.fixFields.append(tables.fields.count - 1)
                fieldStart = fieldEnd
            }
        }
        tables.recordEnds.append(tables.fields.count)
        tables.lines.append(recordLine)
        if read.crInsideLines {
            // The raw text joins the record's lines with LF, as they are shown in rejects.
            let rawBase = tables.extras.count
            var i = recordStart
            while i < read.rawEnd {
                var r = i
                while r < read.rawEnd && base[r] == Self.cr { r += 1 }
                if r > i && r < read.rawEnd && base[r] == Self.lf {
                    i = r
                    continue
                }
                tables.extras.append(base[i])
                i += 1
            }
            tables.rawStarts.append(rawBase)
            tables.rawEnds.append(tables.extras.count)
            tables.fixRaw.append(tables.rawStarts.count - 1)
        } else {
            tables.rawStarts.append(recordStart)
            tables.rawEnds.append(read.rawEnd)
        }
        if csv_get_buffer_size(parser) > Self.keptBuffer { csv_free(parser) }
        if sunk.capacity > Self.keptBuffer { dayfold_csv_sink_free(sink) }
        return .record(next: read.next)
    }

    /// Feeds the record from `firstByte` (its first byte that is not a CR)
    /// to libcsv, one piece per CR or LF, its fields into `sink`; returns
    /// where its raw text ends, where the next record starts and whether a
    /// quoted field holds CR LF, or nil (parser reset) when the buffer ends first.
    private func fields(
        _ base: UnsafePointer<UInt8>, _ recordStart: Int, _ firstByte: Int, _ end: Int, _ atEnd: Bool,
        _ line: inout Int
    ) throws -> (rawEnd: Int, next: Int, crInsideLines: Bool)? {
        dayfold_csv_sink_clear(sink)
        func rollBack() {
            // csv_fini without callbacks: the parser forgets the row it was in.
            _ = csv_fini(parser, nil, nil, nil)
            dayfold_csv_sink_clear(sink)
        }
        var lineStart = recordStart
        // Fed to libcsv up to `fed`; looked at up to `scan`.
        var fed = firstByte
        var scan = firstByte
        var crInsideLines = false
        do {
            while true {
                scan = Int(dayfold_csv_next_break(base, Int64(scan), Int64(end)))
                if scan == end {
                    guard atEnd else {
                        rollBack()
                        return nil
                    }
                    try feed(base, fed, end, lineStart, line)
                    _ = csv_fini(parser, dayfold_csv_sink_field, dayfold_csv_sink_row, context)
                    try checkSink(end, lineStart, line)
                    // The raw text ends before the last line's break, as for any
                    // record: only a quoted field still open at the end (it takes the
                    // rest) has one here, as the last piece fed ended at it.
                    var rawEnd = end
                    if base[rawEnd - 1] == Self.lf { rawEnd -= 1 }
                    while rawEnd > recordStart && base[rawEnd - 1] == Self.cr { rawEnd -= 1 }
                    return (rawEnd, end, crInsideLines)
                }
                let byte = base[scan]
                if byte >= 0x80 {
                    guard let length = try sequenceLength(base, scan, end, atEnd, lineStart, line) else {
                        rollBack()
                        return nil
                    }
                    scan += length
                    continue
                }
                // A CR or LF: the only byte of the piece at which libcsv can end a row.
                let rowEnded = try feed(base, fed, scan + 1, lineStart, line)
                fed = scan + 1
                if byte == Self.lf {
                    line += 1
                    if rowEnded { return (scan, scan + 1, crInsideLines) }
                    // A line break inside quotes (the opening quote is before it).
                    if base[scan - 1] == Self.cr { crInsideLines = true }
                    scan += 1
                    lineStart = scan
                    continue
                }
                scan += 1
                // A CR inside quotes is data.
                guard rowEnded else { continue }
                // libcsv ended a row at this CR. A CR run then LF (or the end) ends
                // the record; a lone CR run separates fields: libcsv's next row
                // (it skips the rest of the run) joins this record.
                var after = scan
                while after < end && base[after] == Self.cr { after += 1 }
                if after == end {
                    guard atEnd else {
                        rollBack()
                        return nil
                    }
                    return (scan - 1, end, crInsideLines)
                }
                if base[after] == Self.lf {
                    line += 1
                    return (scan - 1, after + 1, crInsideLines)
                }
                fed = after
                scan = after
            }
        } catch {
            rollBack()
            throw error
        }
    }

    /// Gives libcsv `base[from..<to]`; returns whether it ended a row (only
    /// the piece's last byte can end one).
    @discardableResult private func feed(
        _ base: UnsafePointer<UInt8>, _ from: Int, _ to: Int, _ lineStart: Int, _ line: Int
    ) throws -> Bool {
        sink.pointee.row_ended = 0
        let count = to - from
        guard count > 0 else { return false }
        // At most one growth per call, and the buffer doubles.
        csv_set_blk_size(parser, max(Self.smallestStep, count, csv_get_buffer_size(parser)))
        let taken = csv_parse(parser, base + from, count, dayfold_csv_sink_field, dayfold_csv_sink_row, context)
        guard taken == count else {
            throw unreadable(from + taken, lineStart, line, String(cString: csv_strerror(csv_error(parser))))
        }
        try checkSink(to, lineStart, line)
        return sink.pointee.row_ended != 0
    }

    /// Throws when the sink could not grow for a field (memory ran out).
    private func checkSink(_ position: Int, _ lineStart: Int, _ line: Int) throws {
        if sink.pointee.failed != 0 { throw unreadable(position, lineStart, line, "memory exhausted") }
    }

    private func unreadable(_ position: Int, _ lineStart: Int, _ line: Int, _ reason: String) -> CSVReadError {
        CSVReadError(
            path: path, line: line, column: position - lineStart + 1,
            detail: "libcsv could not read the record (\(reason)); fix: check that the file is the CSV export")
    }

    /// Length of the UTF-8 sequence at `i` (a non-ASCII lead byte); nil when
    /// it runs past the buffer before the end of the input. Throws when invalid.
    private func sequenceLength(
        _ p: UnsafePointer<UInt8>, _ i: Int, _ end: Int, _ atEnd: Bool, _ lineStart: Int, _ line: Int
    ) throws -> Int? {
        let byte = p[i]
        let length: Int
        if byte & 0xE0 == 0xC0 && byte >= 0xC2 {
            length = 2
        } else if byte & 0xF0 == 0xE0 {
            length = 3
        } else if byte & 0xF8 == 0xF0 && byte <= 0xF4 {
            length = 4
        } else {
            throw invalidUTF8(i, lineStart, line)
        }
        for offset in 1..<length {
            if i + offset >= end {
                if atEnd { throw invalidUTF8(i, lineStart, line) }
                return nil
            }
            if p[i + offset] & 0xC0 != 0x80 { throw invalidUTF8(i, lineStart, line) }
        }
        let second = p[i + 1]
        if length == 3 && ((byte == 0xE0 && second < 0xA0) || (byte == 0xED && second >= 0xA0)) {
            throw invalidUTF8(i, lineStart, line)
        }
        if length == 4 && ((byte == 0xF0 && second < 0x90) || (byte == 0xF4 && second >= 0x90)) {
            throw invalidUTF8(i, lineStart, line)
        }
        return length
    }

    private func invalidUTF8(_ position: Int, _ lineStart: Int, _ line: Int) -> CSVReadError {
        CSVReadError(
            path: path, line: line, column: position - lineStart + 1,
            detail: "invalid UTF-8 (is this a binary file?); fix: re-export the file as UTF-8 text")
    }
}
