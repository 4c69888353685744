import CKernels

/// Splits CSV bytes into records and fields without copying them: a field is
/// a byte range of the input buffer, and only a field with doubled quotes (or
/// a record whose raw text needs its line breaks normalised) is written out.
///
/// Why not libcsv on the hot path: libcsv calls back once per field and once
/// per character for its space test, and copies every field; that capped
/// ingest at about 250 MB/s on one core. This scanner classifies 64 bytes at
/// a time (`dayfold_csv_marks64`: 16-byte compares into bit masks of the few
/// bytes that matter, `,` `"` CR LF and non-ASCII), so finding the end of a
/// field is a shift and a bit count, and reads
/// libcsv's default (non-strict) grammar exactly; `CSVTokenizerTests` checks
/// it against libcsv record for record. The readings that follow libcsv:
/// - spaces are data (never trimmed); an empty field, quoted or not, is NULL;
/// - a quote inside an unquoted field is data; after a closing quote, `""` is
///   one quote, and any byte other than `,` CR LF keeps the quote as data;
/// - a record ends at LF (a CR run before it is dropped); a lone CR run inside
///   a line separates fields; a line of only CR/LF between records is skipped;
/// - a quoted field still open at the end of the file takes the rest of it.
/// Every byte is checked to be UTF-8; the first invalid one fails the file
/// with its line and column.
///
/// Plain records (ASCII, ended by a lone LF, fields unquoted or quoted with
/// only `""` inside, no line break inside quotes: nearly every row of an
/// export) are taken by a C loop, `dayfold_csv_fast_records`, which reads
/// them exactly as `record` does with about 30 % fewer instructions and its
/// state in registers; any other record goes through `record`. Where the CPU
/// has AVX2 its masks are made 32 bytes at a time (`dayfold_csv_marks64_wide`).
struct CSVTokenizer {
    /// The record table a scan appends to; offsets are into the scanned buffer,
    /// except for the fields and raw texts listed in `fixFields`/`fixRaw`,
    /// whose offsets are into `extras` until the batch is sealed.
    struct Tables {
        var fields = FieldOffsets()
        var recordEnds: [Int] = []
        var lines: [Int] = []
        var rawStarts: [Int] = []
        var rawEnds: [Int] = []
        var extras: [UInt8] = []
        var fixFields: [Int] = []
        var fixRaw: [Int] = []

        var count: Int { recordEnds.count }

        init() {}

        init(reservingFields fields: Int, records: Int, recycler: CSVBatchRecycler? = nil) {
            self.fields = recycler?.fieldOffsets(capacity: fields) ?? FieldOffsets(capacity: fields)
            recordEnds.reserveCapacity(records)
            lines.reserveCapacity(records)
            rawStarts.reserveCapacity(records)
            rawEnds.reserveCapacity(records)
        }
    }

    let path: String
    /// The physical line (1-based) at the position the next scan starts from.
    private(set) var line = 1
    /// The stop masks of the 64-byte block starting at `markBlock` (-1: none
    /// yet; reset by every scan, whose buffer is a new one). Fields are
    /// shorter than a block, so most stops are found in the block already classified.
    private var markBlock = -1
    private var unquotedMarks: UInt64 = 0
    private var quotedMarks: UInt64 = 0

    /// Room for what one call of the plain-record scanner finds.
    private let plain = PlainRecordRoom()

    /// Whether the plain-record scanner makes its masks with AVX2: the masks
    /// took a third of its time with 16-byte compares.
    static let wideMarks = dayfold_csv_wide_available() != 0

    init(path: String) { self.path = path }

    private static let comma: UInt8 = 0x2C
    private static let quote: UInt8 = 0x22
    private static let lf: UInt8 = 0x0A
    private static let cr: UInt8 = 0x0D
    private static let commas = ByteWords.repeated(comma)
    private static let quotes = ByteWords.repeated(quote)
    private static let lfs = ByteWords.repeated(lf)
    private static let crs = ByteWords.repeated(cr)

    /// First index ≥ `from` holding `,` CR LF or a non-ASCII byte (`quoted`
    /// false), or `"` LF or a non-ASCII byte (`quoted` true); `end` when none.
    @inline(__always) private mutating func nextStop(
        _ p: UnsafeRawBufferPointer, _ from: Int, _ end: Int, quoted: Bool
    ) -> Int {
        guard let base = p.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return end }
        var i = from
        while true {
            let block = i & ~63
            guard block + 64 <= end else {
                // The last, partial block: tested 8 bytes at a time.
                return quoted ? Self.nextQuotedStop(p, i, end) : Self.nextUnquotedStop(p, i, end)
            }
            if block != markBlock {
                var unquoted: UInt64 = 0
                var quotes: UInt64 = 0
                dayfold_csv_marks64(base + block, &unquoted, &quotes)
                unquotedMarks = unquoted
                quotedMarks = quotes
                markBlock = block
            }
            let bits = (quoted ? quotedMarks : unquotedMarks) >> UInt64(i - block)
            if bits != 0 { return i + bits.trailingZeroBitCount }
            i = block + 64
        }
    }

    /// First index ≥ `from` holding `,` CR LF or a non-ASCII byte (or `end`).
    @inline(__always) private static func nextUnquotedStop(_ p: UnsafeRawBufferPointer, _ from: Int, _ end: Int) -> Int
    {
        var i = from
        while i + 8 <= end {
            let word = p.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            let hit =
                ByteWords.zeroBytes(word ^ commas) | ByteWords.zeroBytes(word ^ lfs)
                | ByteWords.zeroBytes(word ^ crs) | (word & ByteWords.highs)
            if hit != 0 { return i + hit.trailingZeroBitCount >> 3 }
            i += 8
        }
        while i < end {
            let byte = p[i]
            if byte == comma || byte == lf || byte == cr || byte >= 0x80 { return i }
            i += 1
        }
        return end
    }

    /// First index ≥ `from` holding `"` LF or a non-ASCII byte (or `end`).
    @inline(__always) private static func nextQuotedStop(_ p: UnsafeRawBufferPointer, _ from: Int, _ end: Int) -> Int {
        var i = from
        while i + 8 <= end {
            let word = p.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            let hit = ByteWords.zeroBytes(word ^ quotes) | ByteWords.zeroBytes(word ^ lfs) | (word & ByteWords.highs)
            if hit != 0 { return i + hit.trailingZeroBitCount >> 3 }
            i += 8
        }
        while i < end {
            let byte = p[i]
            if byte == quote || byte == lf || byte >= 0x80 { return i }
            i += 1
        }
        return end
    }

    /// Length of the UTF-8 sequence at `i` (a non-ASCII lead byte); nil when
    /// it runs past the buffer before the end of the input. Throws when invalid.
    private func sequenceLength(
        _ p: UnsafeRawBufferPointer, _ i: Int, _ end: Int, atEnd: Bool, lineStart: Int
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
            throw invalidUTF8(i, lineStart)
        }
        for offset in 1..<length {
            if i + offset >= end {
                if atEnd { throw invalidUTF8(i, lineStart) }
                return nil
            }
            if p[i + offset] & 0xC0 != 0x80 { throw invalidUTF8(i, lineStart) }
        }
        let second = p[i + 1]
        if length == 3 && ((byte == 0xE0 && second < 0xA0) || (byte == 0xED && second >= 0xA0)) {
            throw invalidUTF8(i, lineStart)
        }
        if length == 4 && ((byte == 0xF0 && second < 0x90) || (byte == 0xF4 && second >= 0x90)) {
            throw invalidUTF8(i, lineStart)
        }
        return length
    }

    private func invalidUTF8(_ position: Int, _ lineStart: Int) -> CSVReadError {
        CSVReadError(
            path: path, line: line, column: position - lineStart + 1,
            detail: "invalid UTF-8 (is this a binary file?); fix: re-export the file as UTF-8 text")
    }

    /// How a record attempt ended.
    private enum Step {
        case record(next: Int)
        case incomplete
        case finished
    }

    /// Tokenizes the complete records of `p[from...]` into `tables`; returns
    /// where the first incomplete record starts (`p.count` when none is left).
    /// With `atEnd` the buffer holds the rest of the input, so nothing is incomplete.
    mutating func scan(_ p: UnsafeRawBufferPointer, from: Int, atEnd: Bool, into tables: inout Tables) throws -> Int {
        markBlock = -1
        var position = from
        while true {
            position = takePlainRecords(p, position, &tables)
            switch try record(p, position, atEnd, &tables) {
            case .record(let next): position = next
            case .incomplete: return position
            case .finished: return p.count
            }
        }
    }

    private mutating func record(
        _ p: UnsafeRawBufferPointer, _ start: Int, _ atEnd: Bool, _ tables: inout Tables
    ) throws -> Step {
        let end = p.count
        var position = start
        let entryLine = line
        // Blank lines (only CR/LF) between records are skipped and not counted.
        var fieldStart: Int
        while true {
            var i = position
            while i < end && p[i] == Self.cr { i += 1 }
            if i == end {
                if atEnd { return .finished }
                line = entryLine
                return .incomplete
            }
            if p[i] != Self.lf {
                fieldStart = i
                break
            }
            line += 1
            position = i + 1
        }
        let recordStart = position
        let recordLine = line
        var lineStart = position
        let fieldMark = tables.fields.count
        let extrasMark = tables.extras.count
        let fixMark = tables.fixFields.count
        var rawEnd = 0
        var next = 0
        var crInsideLines = false

        func rollBack() {
            tables.fields.truncate(to: fieldMark)
            tables.extras.removeSubrange(extrasMark...)
            tables.fixFields.removeSubrange(fixMark...)
            line = entryLine
        }

        /// After a field ended at the CR at `i`: the record ends (CR run then LF,
        /// which is counted, or the end) or the CR run separates fields. nil:
        /// the run reaches the end of the buffer before the input ends.
        func afterCR(_ i: Int) -> (ends: Bool, next: Int)? {
            var r = i
            while r < end && p[r] == Self.cr { r += 1 }
            if r == end { return atEnd ? (true, end) : nil }
            if p[r] == Self.lf {
                line += 1
                return (true, r + 1)
            }
            return (false, r)
        }

        fields: while true {
            // (A separator at the very end of the input leaves one more, empty,
            // unquoted field.)
            if fieldStart == end || p[fieldStart] != Self.quote {
                var i = fieldStart
                while true {
                    i = nextStop(p, i, end, quoted: false)
                    if i == end {
                        guard atEnd else {
                            rollBack()
                            return .incomplete
                        }
                        tables.fields.append(fieldStart, end)
                        rawEnd = end
                        next = end
                        break fields
                    }
                    let byte = p[i]
                    if byte >= 0x80 {
                        guard let length = try sequenceLength(p, i, end, atEnd: atEnd, lineStart: lineStart) else {
                            rollBack()
                            return .incomplete
                        }
                        i += length
                        continue
                    }
                    tables.fields.append(fieldStart, i)
                    if byte == Self.comma {
                        fieldStart = i + 1
                        continue fields
                    }
                    if byte == Self.lf {
                        rawEnd = i
                        next = i + 1
                        line += 1
                        break fields
                    }
                    guard let (ends, after) = afterCR(i) else {
                        rollBack()
                        return .incomplete
                    }
                    if ends {
                        rawEnd = i
                        next = after
                        break fields
                    }
                    fieldStart = after
                    continue fields
                }
            }
            // A quoted field.
            let contentStart = fieldStart + 1
            var i = contentStart
            var escaped = false
            while true {
                i = nextStop(p, i, end, quoted: true)
                if i == end {
                    guard atEnd else {
                        rollBack()
                        return .incomplete
                    }
                    // Still open at the end of the input: it takes the rest.
                    appendField(p, contentStart, end, escaped, &tables)
                    // The raw text ends before the last line's break, as for any record.
                    rawEnd = end
                    if p[rawEnd - 1] == Self.lf { rawEnd -= 1 }
                    while rawEnd > recordStart && p[rawEnd - 1] == Self.cr { rawEnd -= 1 }
                    next = end
                    break fields
                }
                let byte = p[i]
                if byte == Self.lf {
                    if i > contentStart && p[i - 1] == Self.cr { crInsideLines = true }
                    line += 1
                    i += 1
                    lineStart = i
                    continue
                }
                if byte >= 0x80 {
                    guard let length = try sequenceLength(p, i, end, atEnd: atEnd, lineStart: lineStart) else {
                        rollBack()
                        return .incomplete
                    }
                    i += length
                    continue
                }
                // A quote: closing, doubled, or (followed by anything else) data.
                if i + 1 == end {
                    guard atEnd else {
                        rollBack()
                        return .incomplete
                    }
                    appendField(p, contentStart, i, escaped, &tables)
                    rawEnd = end
                    next = end
                    break fields
                }
                let following = p[i + 1]
                if following == Self.comma {
                    appendField(p, contentStart, i, escaped, &tables)
                    fieldStart = i + 2
                    continue fields
                }
                if following == Self.lf {
                    appendField(p, contentStart, i, escaped, &tables)
                    rawEnd = i + 1
                    next = i + 2
                    line += 1
                    break fields
                }
                if following == Self.cr {
                    guard let (ends, after) = afterCR(i + 1) else {
                        rollBack()
                        return .incomplete
                    }
                    appendField(p, contentStart, i, escaped, &tables)
                    if ends {
                        rawEnd = i + 1
                        next = after
                        break fields
                    }
                    fieldStart = after
                    continue fields
                }
                escaped = true
                i += following == Self.quote ? 2 : 1
            }
        }
        tables.recordEnds.append(tables.fields.count)
        tables.lines.append(recordLine)
        if crInsideLines {
            // The raw text joins the record's lines with LF, as they are shown in rejects.
            let base = tables.extras.count
            var i = recordStart
            while i < rawEnd {
                var r = i
                while r < rawEnd && p[r] == Self.cr { r += 1 }
                if r > i && r < rawEnd && p[r] == Self.lf {
                    i = r
                    continue
                }
                tables.extras.append(p[i])
                i += 1
            }
            tables.rawStarts.append(base)
            tables.rawEnds.append(tables.extras.count)
            tables.fixRaw.append(tables.rawStarts.count - 1)
        } else {
            tables.rawStarts.append(recordStart)
            tables.rawEnds.append(rawEnd)
        }
        return .record(next: next)
    }

    /// Takes the plain records from `from` on with the C scanner
    /// (`dayfold_csv_fast_records`: ASCII records of unquoted or simply quoted
    /// fields, ended by LF, which is nearly every row); returns where the
    /// first record it left to `record` starts. The scanner keeps its
    /// offsets in registers and tests no case a plain record cannot hit.
    private mutating func takePlainRecords(_ p: UnsafeRawBufferPointer, _ from: Int, _ tables: inout Tables) -> Int {
        guard let base = p.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return from }
        var position = from
        while true {
            var out = plain.out
            let firstField = tables.fields.count
            // The field offsets are written straight into the table's room.
            tables.fields.fill(atLeast: PlainRecordRoom.fieldRoom) { starts, ends, room in
                out.field_starts = starts
                out.field_ends = ends
                out.field_capacity = Int64(room)
                position = Int(
                    dayfold_csv_fast_records(base, Int64(position), Int64(p.count), &out, Self.wideMarks ? 1 : 0))
                return Int(out.field_count)
            }
            let records = Int(out.record_count)
            // None taken: the record at `position` is one for `record`.
            guard records > 0 else { return position }
            tables.recordEnds.reserveCapacity(tables.recordEnds.count + records)
            tables.lines.reserveCapacity(tables.lines.count + records)
            tables.rawStarts.reserveCapacity(tables.rawStarts.count + records)
            tables.rawEnds.reserveCapacity(tables.rawEnds.count + records)
            for record in 0..<records {
                tables.recordEnds.append(firstField + Int(out.record_field_ends[record]))
                tables.lines.append(line + record)
                tables.rawStarts.append(Int(out.record_starts[record]))
                tables.rawEnds.append(Int(out.record_raw_ends[record]))
            }
            for index in 0..<Int(out.escaped_count) {
                let field = firstField + Int(out.escaped[index])
                let written = undouble(p, tables.fields.start(field), tables.fields.end(field), into: &tables.extras)
                tables.fields.set(field, start: written.lowerBound, end: written.upperBound)
                tables.fixFields.append(field)
            }
            line += records
        }
    }

    /// Adds a quoted field's content `p[start..<end]`, undoubling quotes when `escaped`.
    private func appendField(
        _ p: UnsafeRawBufferPointer, _ start: Int, _ end: Int, _ escaped: Bool, _ tables: inout Tables
    ) {
        guard escaped else {
            tables.fields.append(start, end)
            return
        }
        let written = undouble(p, start, end, into: &tables.extras)
        tables.fields.append(written.lowerBound, written.upperBound)
        tables.fixFields.append(tables.fields.count - 1)
    }

    /// Writes `p[start..<end]` with each doubled quote made one to the end of
    /// `extras`; returns where it went there.
    private func undouble(_ p: UnsafeRawBufferPointer, _ start: Int, _ end: Int, into extras: inout [UInt8]) -> Range<
        Int
    > {
        let base = extras.count
        // Written into room taken once: an append per byte checked the
        // array's capacity and uniqueness for every byte of JSON text.
        extras.append(addingCapacity: end - start) { output in
            output.withUnsafeMutableBufferPointer { room, initialized in
                guard let target = room.baseAddress, let source = p.baseAddress?.assumingMemoryBound(to: UInt8.self)
                else { return }
                var written = 0
                var i = start
                // Eight bytes at a time: a word is stored whole, and the
                // output advances to just past its first quote (or by all
                // eight); a doubled quote's second half is then skipped. The
                // output never outruns the input, so a whole word always fits.
                while i + 8 <= end {
                    let word = UnsafeRawPointer(source + i).loadUnaligned(as: UInt64.self)
                    UnsafeMutableRawPointer(target + written).storeBytes(of: word, as: UInt64.self)
                    let quotes = ByteWords.zeroBytes(word ^ Self.quotes)
                    if quotes == 0 {
                        written += 8
                        i += 8
                        continue
                    }
                    let run = quotes.trailingZeroBitCount >> 3 + 1
                    written += run
                    i += run
                    if i < end && source[i] == Self.quote { i += 1 }
                }
                while i < end {
                    let byte = source[i]
                    target[written] = byte
                    written += 1
                    i += byte == Self.quote && i + 1 < end && source[i + 1] == Self.quote ? 2 : 1
                }
                initialized = written
            }
        }
        return base..<extras.count
    }
}

/// Room for one call of `dayfold_csv_fast_records`: its output arrays,
/// allocated once per tokenizer (a file's scans reuse them).
final class PlainRecordRoom {
    /// Field slots a call gets at least (the table's room, written in place).
    static let fieldRoom = 1_024
    let recordCapacity = 1_024
    let escapedCapacity = 4_096
    private let recordFieldEnds: UnsafeMutablePointer<Int64>
    private let recordStarts: UnsafeMutablePointer<Int64>
    private let recordRawEnds: UnsafeMutablePointer<Int64>
    private let escaped: UnsafeMutablePointer<Int64>

    init() {
        recordFieldEnds = .allocate(capacity: recordCapacity)
        recordStarts = .allocate(capacity: recordCapacity)
        recordRawEnds = .allocate(capacity: recordCapacity)
        escaped = .allocate(capacity: escapedCapacity)
    }

    deinit {
        for pointer in [recordFieldEnds, recordStarts, recordRawEnds, escaped] { pointer.deallocate() }
    }

    /// The scanner's output description, counts at zero; the field arrays
    /// are set by the caller (the table's room).
    var out: dayfold_csv_fast_out {
        dayfold_csv_fast_out(
            field_starts: nil, field_ends: nil, field_capacity: 0, field_count: 0,
            record_field_ends: recordFieldEnds, record_starts: recordStarts, record_raw_ends: recordRawEnds,
            record_capacity: Int64(recordCapacity), record_count: 0,
            escaped: escaped, escaped_capacity: Int64(escapedCapacity), escaped_count: 0)
    }
}
