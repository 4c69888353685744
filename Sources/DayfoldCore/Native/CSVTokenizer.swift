import CKernels

/// Splits CSV bytes into records and fields (SPEC §9's reading rules, as
/// `LibCSVParser` lists them) in two readers:
/// - plain records (valid UTF-8, ended by LF or CR LF, fields unquoted or
///   quoted with only `""` inside, no LF inside quotes: nearly every row of
///   an export, CRLF ones too) are taken by a C loop,
///   `dayfold_csv_fast_records`, without copying: a field is a byte range of
///   the input buffer, and only a field with doubled quotes is written out.
///   It classifies 64 bytes at a time (`dayfold_csv_marks64`: bit masks of
///   `,` `"` CR LF and non-ASCII bytes; made 32 bytes at a time where the CPU
///   has AVX2), so finding the end of a field is a shift and a bit count;
/// - every other record (a lone CR or a CR run, invalid UTF-8, a line break
///   inside quotes, a quote followed by other data, blank lines before it, a
///   record the buffer holds only part of) is read by libcsv through
///   `LibCSVParser`, which copies its fields. libcsv is not the whole reader
///   because it tests every byte through a function pointer and copies every
///   field: a CRLF drop read all through it took twice the CPU time.
/// After each record libcsv read, the C loop takes over again; both read a
/// plain record the same way (`CSVTokenizerTests` checks the whole tokenizer
/// against a reference parser in the tests, record for record).
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
    /// Room for what one call of the plain-record scanner finds.
    private let plain = PlainRecordRoom()

    /// Whether the plain-record scanner makes its masks with AVX2: the masks
    /// took a third of its time with 16-byte compares.
    static let wideMarks = dayfold_csv_wide_available() != 0

    /// Every record the plain-record scanner leaves goes through libcsv.
    private let general: LibCSVParser

    init(path: String) {
        self.path = path
        general = LibCSVParser(path: path)
    }

    private static let quote: UInt8 = 0x22
    private static let quotes = ByteWords.repeated(quote)

    /// Tokenizes the complete records of `p[from...]` into `tables`; returns
    /// where the first incomplete record starts (`p.count` when none is left).
    /// With `atEnd` the buffer holds the rest of the input, so nothing is incomplete.
    mutating func scan(_ p: UnsafeRawBufferPointer, from: Int, atEnd: Bool, into tables: inout Tables) throws -> Int {
        var position = from
        while true {
            position = takePlainRecords(p, position, &tables)
            switch try general.record(p, position, atEnd, &tables, line: &line) {
            case .record(let next): position = next
            case .incomplete: return position
            case .finished: return p.count
            }
        }
    }

    /// Takes the plain records from `from` on with the C scanner
    /// (`dayfold_csv_fast_records`: UTF-8 records of unquoted or simply quoted
    /// fields, ended by LF or CR LF, which is nearly every row); returns where the
    /// first record it left to `LibCSVParser` starts. The scanner keeps its
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
