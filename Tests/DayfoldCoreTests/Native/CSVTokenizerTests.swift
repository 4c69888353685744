import CCSV
import Foundation
import Testing

@testable import DayfoldCore

/// The tokenizer against libcsv (default mode, spaces kept, fed a physical
/// line at a time as dayfold fed it before the tokenizer): random texts from
/// the pieces CSV exports are made of must give the same records, start lines
/// and raw texts, whatever the chunk size.
@Suite struct CSVTokenizerTests {
    typealias Record = CSVReference.Record

    @Test func randomTextsMatchLibcsvRecordForRecord() throws {
        let pieces = [
            "a", "bc", "12", " ", ",", ",", ",", "\"", "\"", "\"\"", "\n", "\n", "\r\n", "é", "日本", "x\"y",
            "\"q,\nr\"",
        ]
        var generator = ParquetTestRandom(state: 7)
        for round in 0..<400 {
            var text = round % 3 == 0 ? "\u{FEFF}" : ""
            for _ in 0..<Int.random(in: 1...40, using: &generator) {
                text += pieces[Int.random(in: 0..<pieces.count, using: &generator)]
            }
            let bytes = Array(text.utf8)
            let expected = try CSVReference.records(bytes)
            for chunk in [1, 2, 5, 64, 1 << 20] {
                let actual = try CSVRecordReaderTests.records(bytes, chunkSize: chunk).map {
                    Record(line: $0.0, fields: $0.1, raw: $0.2)
                }
                #expect(actual == expected, "text \(text.debugDescription) chunk \(chunk)")
                if actual != expected { return }
            }
        }
    }

    /// Texts of several 64-byte blocks: fields and stops fall anywhere in a
    /// block, at its edges and across them, and the last partial block of each
    /// buffer is scanned by the byte loop.
    @Test func longTextsMatchLibcsvAcrossBlockEdges() throws {
        let pieces = [
            "0123456789abcdef0123456789abcdef-", "a", ",", ",", "\"", "\"\"", "\n", "\r\n", "é", "x\"y",
            "\"{\"\"k\"\":\"\"v\"\",\"\"n\"\":1}\"", "\"q,\nr\"", String(repeating: "z", count: 63),
        ]
        var generator = ParquetTestRandom(state: 11)
        for round in 0..<120 {
            var text = ""
            for _ in 0..<Int.random(in: 20...200, using: &generator) {
                text += pieces[Int.random(in: 0..<pieces.count, using: &generator)]
            }
            let bytes = Array(text.utf8)
            let expected = try CSVReference.records(bytes)
            for chunk in [7, 64, 100, 1 << 20] {
                let actual = try CSVRecordReaderTests.records(bytes, chunkSize: chunk).map {
                    Record(line: $0.0, fields: $0.1, raw: $0.2)
                }
                #expect(actual == expected, "round \(round) chunk \(chunk)")
                if actual != expected { return }
            }
        }
    }

    /// Thousands of records, most of them plain (what the C scanner takes:
    /// unquoted fields, quoted ones with doubled quotes), among records that
    /// send it back to the general loop (CR, non-ASCII, a quote followed by
    /// data, a line break inside quotes, blank lines), more records than one
    /// scanner call has room for, and one record wider than its field room.
    @Test func plainRecordsAmongEveryOtherKindMatchLibcsv() throws {
        let plain = [
            "id-1,2025-04-01,COMPLETED,,3.5", "\"{\"\"title\"\":\"\"Lunch\"\"}\",x,\"\",\"\"\"\"",
            ",,,", "a,\"b,c\",d", "x\"y,z",
        ]
        let others = [
            "a,b\r", "caf\u{E9},1", "\"ab\"cd,e", "\"q\nr\",s", "", "\r", "\"open,\"\r", "k,\"v\"\r",
        ]
        var generator = ParquetTestRandom(state: 23)
        var lines: [String] = []
        for index in 0..<3_000 {
            if index == 1_500 { lines.append(Array(repeating: "w", count: 17_000).joined(separator: ",")) }
            let other = Int.random(in: 0..<10, using: &generator) == 0
            let pool = other ? others : plain
            lines.append(pool[Int.random(in: 0..<pool.count, using: &generator)])
        }
        let bytes = Array((lines.joined(separator: "\n") + "\n").utf8)
        let expected = try CSVReference.records(bytes)
        for chunk in [4_096, 1 << 20] {
            let actual = try CSVRecordReaderTests.records(bytes, chunkSize: chunk).map {
                Record(line: $0.0, fields: $0.1, raw: $0.2)
            }
            #expect(actual.count == expected.count, "chunk \(chunk)")
            let first = zip(actual, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            #expect(first == nil, "chunk \(chunk): first difference at record \(first ?? -1)")
        }
    }

    @Test func quoteRulesFollowLibcsv() throws {
        let text = "\"ab\"cd,ef\",\"a\"\"\"b\",x\"y\"\n\"\"\"\",\"\",\n"
        let expected = try CSVReference.records(Array(text.utf8))
        let actual = try CSVRecordReaderTests.records(Array(text.utf8))
        #expect(actual.map(\.1) == expected.map(\.fields))
        // Worked by hand: a quote after a closing quote keeps both as data.
        #expect(actual.map(\.1) == [["ab\"cd,ef", "a\"\"b", "x\"y\""], ["\"", nil, nil]])
    }

    @Test func anUnclosedQuoteTakesTheRestOfTheFile() throws {
        let text = "id,note\n1,\"open\n2,b\n"
        let rows = try CSVRecordReaderTests.records(Array(text.utf8), chunkSize: 3)
        #expect(rows.map(\.1) == [["id", "note"], ["1", "open\n2,b\n"]])
        #expect(rows[1].2 == "1,\"open\n2,b")
        #expect(try CSVReference.records(Array(text.utf8)).map(\.fields) == rows.map(\.1))
    }

    @Test func crlfInsideAQuotedFieldIsDataAndRawJoinsLinesWithLF() throws {
        let text = "a,b\r\n1,\"x\r\ny\"\r\n2,z\r\n"
        let rows = try CSVRecordReaderTests.records(Array(text.utf8), chunkSize: 4)
        #expect(rows.map(\.0) == [1, 2, 4])
        #expect(rows[1].1 == ["1", "x\r\ny"])
        #expect(rows[1].2 == "1,\"x\ny\"")
        #expect(rows[2].1 == ["2", "z"])
    }

    @Test func aLoneCRInsideALineSeparatesFields() throws {
        let rows = try CSVRecordReaderTests.records(Array("a,b\rc\n\r,d\n".utf8))
        #expect(rows.map(\.1) == [["a", "b", "c"], [nil, "d"]])
        #expect(rows.map(\.0) == [1, 2])
    }

    @Test func aSplitMultibyteCharacterIsNotAnError() throws {
        let text = "a\né,日本\n"
        for chunk in 1...6 {
            let rows = try CSVRecordReaderTests.records(Array(text.utf8), chunkSize: chunk)
            #expect(rows.map(\.1) == [["a"], ["é", "日本"]])
        }
    }

    @Test func invalidUTF8InsideAQuotedFieldNamesItsLine() throws {
        var bytes = Array("a,b\n1,\"x\ny".utf8)
        bytes += [0xC3, 0x28]
        bytes += Array("\"\n".utf8)
        #expect {
            _ = try CSVRecordReaderTests.records(bytes, chunkSize: 2)
        } throws: { error in
            guard let error = error as? CSVReadError else { return false }
            return error.line == 3 && error.column == 2
        }
    }
}

/// dayfold's earlier reader, on libcsv: the reference for the tokenizer.
enum CSVReference {
    struct Record: Equatable, CustomStringConvertible {
        var line: Int
        var fields: [String?]
        var raw: String
        var description: String { "\(line) \(fields) \(raw.debugDescription)" }
    }

    final class Sink {
        var fields: [String?] = []
        var complete = false
    }

    static func records(_ input: [UInt8]) throws -> [Record] {
        var bytes = input
        if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { bytes.removeFirst(3) }
        var parser = csv_parser()
        guard csv_init(&parser, 0) == 0 else { throw CSVReferenceError() }
        defer { csv_free(&parser) }
        csv_set_space_func(&parser, dayfold_csv_no_space)
        let sink = Sink()
        let context = Unmanaged.passUnretained(sink).toOpaque()
        var out: [Record] = []
        var inRecord = false
        var recordLine = 0
        var raw: [UInt8] = []
        var lineNumber = 0
        var start = 0
        func finish() {
            if sink.complete {
                out.append(Record(line: recordLine, fields: sink.fields, raw: String(decoding: raw, as: UTF8.self)))
                sink.fields = []
                sink.complete = false
                inRecord = false
            }
        }
        while start < bytes.count {
            var end = start
            while end < bytes.count && bytes[end] != 0x0A { end += 1 }
            if end < bytes.count { end += 1 }
            lineNumber += 1
            var contentEnd = end
            while contentEnd > start && (bytes[contentEnd - 1] == 0x0A || bytes[contentEnd - 1] == 0x0D) {
                contentEnd -= 1
            }
            if !inRecord {
                if contentEnd == start {
                    start = end
                    continue
                }
                inRecord = true
                recordLine = lineNumber
                raw = []
            } else {
                raw.append(0x0A)
            }
            raw += bytes[start..<contentEnd]
            let fed = bytes[start..<end].withUnsafeBufferPointer { buffer in
                csv_parse(&parser, buffer.baseAddress, buffer.count, referenceField, referenceRecord, context)
            }
            guard fed == end - start else { throw CSVReferenceError() }
            finish()
            start = end
        }
        csv_fini(&parser, referenceField, referenceRecord, context)
        finish()
        return out
    }
}

struct CSVReferenceError: Error {}

private let referenceField: @convention(c) (UnsafeMutableRawPointer?, Int, UnsafeMutableRawPointer?) -> Void = {
    data, length, context in
    guard let context else { return }
    let sink = Unmanaged<CSVReference.Sink>.fromOpaque(context).takeUnretainedValue()
    guard let data, length > 0 else {
        sink.fields.append(nil)
        return
    }
    sink.fields.append(String(decoding: UnsafeRawBufferPointer(start: data, count: length), as: UTF8.self))
}

private let referenceRecord: @convention(c) (Int32, UnsafeMutableRawPointer?) -> Void = { _, context in
    guard let context else { return }
    Unmanaged<CSVReference.Sink>.fromOpaque(context).takeUnretainedValue().complete = true
}
