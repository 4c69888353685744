import CKernels
import Testing

@testable import DayfoldCore

/// The plain-record scanner makes its byte masks 32 bytes at a time where the
/// CPU has AVX2 and 16 bytes at a time elsewhere: both must take exactly the
/// same records, fields and escaped fields, and stop at the same byte.
@Suite struct CSVFastRecordsTests {
    private struct Scan: Equatable {
        var next: Int64
        var fields: [[Int64]]
        var records: [[Int64]]
        var escaped: [Int64]
    }

    private func scan(_ bytes: [UInt8], from: Int, fieldRoom: Int, recordRoom: Int, wide: Bool) -> Scan {
        var starts = [Int64](repeating: -1, count: fieldRoom)
        var ends = [Int64](repeating: -1, count: fieldRoom)
        var fieldEnds = [Int64](repeating: -1, count: recordRoom)
        var recordStarts = [Int64](repeating: -1, count: recordRoom)
        var rawEnds = [Int64](repeating: -1, count: recordRoom)
        var escaped = [Int64](repeating: -1, count: 8)
        var out = dayfold_csv_fast_out()
        let next = bytes.withUnsafeBufferPointer { input in
            starts.withUnsafeMutableBufferPointer { starts in
                ends.withUnsafeMutableBufferPointer { ends in
                    fieldEnds.withUnsafeMutableBufferPointer { fieldEnds in
                        recordStarts.withUnsafeMutableBufferPointer { recordStarts in
                            rawEnds.withUnsafeMutableBufferPointer { rawEnds in
                                escaped.withUnsafeMutableBufferPointer { escaped in
                                    out = dayfold_csv_fast_out(
                                        field_starts: starts.baseAddress, field_ends: ends.baseAddress,
                                        field_capacity: Int64(fieldRoom), field_count: 0,
                                        record_field_ends: fieldEnds.baseAddress,
                                        record_starts: recordStarts.baseAddress, record_raw_ends: rawEnds.baseAddress,
                                        record_capacity: Int64(recordRoom), record_count: 0,
                                        escaped: escaped.baseAddress, escaped_capacity: Int64(escaped.count),
                                        escaped_count: 0)
                                    return dayfold_csv_fast_records(
                                        input.baseAddress, Int64(from), Int64(input.count), &out, wide ? 1 : 0)
                                }
                            }
                        }
                    }
                }
            }
        }
        let fields = Int(out.field_count)
        let records = Int(out.record_count)
        return Scan(
            next: next,
            fields: [Array(starts[..<fields]), Array(ends[..<fields])],
            records: [Array(fieldEnds[..<records]), Array(recordStarts[..<records]), Array(rawEnds[..<records])],
            escaped: Array(escaped[..<Int(out.escaped_count)]))
    }

    @Test func plainRecordsAreReadAsTheRecordsTheyAre() {
        let text = "a,\"b,\"\"c\"\"\",\n,x\n\"q\"\ntail-without-end"
        var bytes = Array(text.utf8)
        // Room for whole 64-byte blocks: the scanner never reads a block past the end.
        bytes += [UInt8](repeating: UInt8(ascii: "z"), count: 128)
        let result = scan(bytes, from: 0, fieldRoom: 64, recordRoom: 64, wide: CSVTokenizer.wideMarks)
        // Three records: [a][b,"c"][] · [][x] · [q]; the tail has no LF.
        // Offsets: a 0, the quoted field's content 3..<10, LF 12; `,` 13,
        // x 14, LF 15; q's quotes 16 and 18, LF 19.
        #expect(result.records[0] == [3, 5, 6])
        #expect(result.records[1] == [0, 13, 16])
        #expect(result.records[2] == [12, 15, 19])
        #expect(result.fields[0] == [0, 3, 12, 13, 14, 17])
        #expect(result.fields[1] == [1, 10, 12, 13, 15, 18])
        #expect(result.escaped == [1])
        #expect(result.next == 20)
    }

    /// CR LF ends a plain record and valid UTF-8 is plain text; a CR run, a
    /// lone CR, an invalid sequence are left to libcsv.
    @Test func crlfAndUTF8RecordsArePlainAndTheRestIsLeft() {
        let padding = [UInt8](repeating: UInt8(ascii: "z"), count: 128)
        func taken(_ text: [UInt8]) -> Scan {
            scan(text + padding, from: 0, fieldRoom: 64, recordRoom: 64, wide: CSVTokenizer.wideMarks)
        }
        // caf\u{E9},"\u{65E5}" CR LF · x LF (é two bytes, 日 three): the raw
        // text stops at the CR.
        let plain = taken(Array("caf\u{E9},\"\u{65E5}\"\r\nx\n".utf8))
        #expect(plain.records[2] == [11, 14])
        #expect(plain.fields == [[0, 7, 13], [5, 10, 14]])
        #expect(plain.next == 15)
        for left in ["a\r\r\n", "a\rb\n", "\"q\"\r\r\n", "a\r"] {
            #expect(taken(Array(left.utf8)).next == 0, "\(left.debugDescription)")
        }
        for bytes: [UInt8] in [[0x61, 0xC3, 0x28, 0x0A], [0x22, 0xED, 0xA0, 0x80, 0x22, 0x0A], [0x80, 0x0A]] {
            #expect(taken(bytes).next == 0, "\(bytes)")
        }
    }

    @Test(.enabled(if: CSVTokenizer.wideMarks))
    func wideAndNarrowMasksTakeTheSameRecords() {
        // Bytes that matter to the scanner, often: separators, quotes, CR, non-ASCII.
        let alphabet: [UInt8] = Array("ab,,\"\"\n\r".utf8) + [0xC3, 0xA9]
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        for round in 0..<3000 {
            let count = 1 + next(600)
            let mostlyLetters = round % 2 == 0
            let bytes: [UInt8] = (0..<count).map { _ in
                if mostlyLetters, next(10) < 7 { return UInt8(ascii: "a") + UInt8(next(26)) }
                return alphabet[next(alphabet.count)]
            }
            let from = next(count)
            let fieldRoom = 1 + next(40)
            let recordRoom = 1 + next(10)
            let wide = scan(bytes, from: from, fieldRoom: fieldRoom, recordRoom: recordRoom, wide: true)
            let narrow = scan(bytes, from: from, fieldRoom: fieldRoom, recordRoom: recordRoom, wide: false)
            #expect(wide == narrow, "round \(round)")
            if wide != narrow { return }
        }
    }
}
