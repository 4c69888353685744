import Foundation
import Testing

@testable import DayfoldCore

/// The tokenizer (the C plain-record loop, libcsv behind `LibCSVParser`,
/// and the hand-overs between them) against `CSVReference`, a byte-at-a-time
/// reading of the same rules that shares nothing with it: random texts from
/// the pieces CSV exports are made of (and lone CRs, which only the wrapper
/// handles) must give the same records, start lines and raw texts, whatever
/// the chunk size.
@Suite struct CSVTokenizerTests {
    typealias Record = CSVReference.Record

    static func tokenized(_ bytes: [UInt8], chunkSize: Int) throws -> [Record] {
        try CSVRecordReaderTests.records(bytes, chunkSize: chunkSize).map {
            Record(line: $0.0, fields: $0.1, raw: $0.2)
        }
    }

    @Test func randomTextsMatchTheReferenceRecordForRecord() throws {
        let pieces = [
            "a", "bc", "12", " ", ",", ",", ",", "\"", "\"", "\"\"", "\n", "\n", "\r\n", "é", "日本", "x\"y",
            "\"q,\nr\"", "\r", "\r\r", "\"q\r\nr\"", "\t",
        ]
        var generator = ParquetTestRandom(state: 7)
        for round in 0..<400 {
            var text = round % 3 == 0 ? "\u{FEFF}" : ""
            for _ in 0..<Int.random(in: 1...40, using: &generator) {
                text += pieces[Int.random(in: 0..<pieces.count, using: &generator)]
            }
            let bytes = Array(text.utf8)
            let expected = CSVReference.records(bytes)
            for chunk in [1, 2, 5, 64, 1 << 20] {
                let actual = try Self.tokenized(bytes, chunkSize: chunk)
                #expect(actual == expected, "text \(text.debugDescription) chunk \(chunk)")
                if actual != expected { return }
            }
        }
    }

    /// Texts of several 64-byte blocks: fields and stops fall anywhere in a
    /// block, at its edges and across them, and the last partial block of each
    /// buffer is left to libcsv.
    @Test func longTextsMatchTheReferenceAcrossBlockEdges() throws {
        let pieces = [
            "0123456789abcdef0123456789abcdef-", "a", ",", ",", "\"", "\"\"", "\n", "\r\n", "é", "x\"y",
            "\"{\"\"k\"\":\"\"v\"\",\"\"n\"\":1}\"", "\"q,\nr\"", String(repeating: "z", count: 63), "\r",
        ]
        var generator = ParquetTestRandom(state: 11)
        for round in 0..<120 {
            var text = ""
            for _ in 0..<Int.random(in: 20...200, using: &generator) {
                text += pieces[Int.random(in: 0..<pieces.count, using: &generator)]
            }
            let bytes = Array(text.utf8)
            let expected = CSVReference.records(bytes)
            for chunk in [7, 64, 100, 1 << 20] {
                let actual = try Self.tokenized(bytes, chunkSize: chunk)
                #expect(actual == expected, "round \(round) chunk \(chunk)")
                if actual != expected { return }
            }
        }
    }

    /// Thousands of records, most of them plain (what the C scanner takes:
    /// unquoted fields, quoted ones with doubled quotes, non-ASCII, CR LF),
    /// among records that send it to libcsv (a CR before the LF, a quote
    /// followed by data, a line break inside quotes, blank lines, a lone CR),
    /// more records than one scanner call has room for, and one record wider
    /// than its field room.
    @Test func plainRecordsAmongEveryOtherKindMatchTheReference() throws {
        let plain = [
            "id-1,2025-04-01,COMPLETED,,3.5", "\"{\"\"title\"\":\"\"Lunch\"\"}\",x,\"\",\"\"\"\"",
            ",,,", "a,\"b,c\",d", "x\"y,z",
        ]
        let others = [
            "a,b\r", "caf\u{E9},1", "\"ab\"cd,e", "\"q\nr\",s", "", "\r", "\"open,\"\r", "k,\"v\"\r", "a\rb,c",
            "\"x\r\ny\",z",
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
        let expected = CSVReference.records(bytes)
        for chunk in [4_096, 1 << 20] {
            let actual = try Self.tokenized(bytes, chunkSize: chunk)
            #expect(actual.count == expected.count, "chunk \(chunk)")
            let first = zip(actual, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            #expect(first == nil, "chunk \(chunk): first difference at record \(first ?? -1)")
        }
    }

    /// A CRLF export (its plain records taken by the C loop, those with a line
    /// break inside quotes by libcsv) reads as its LF twin does.
    @Test func aCRLFFileReadsAsItsLFTwin() throws {
        let rows = (0..<2_000).map {
            "id-\($0),\"n\"\"\($0)\"\"\",caf\u{E9},,\($0 % 7 == 0 ? "\"a\nb\"" : "x")"
        }
        let lf = Array((rows.joined(separator: "\n") + "\n").utf8)
        let crlf = Array((rows.joined(separator: "\r\n") + "\r\n").utf8)
        let expected = try Self.tokenized(lf, chunkSize: 4_096)
        #expect(expected.count == 2_000)
        #expect(expected.last?.fields == ["id-1999", "n\"1999\"", "caf\u{E9}", nil, "x"])
        let actual = try Self.tokenized(crlf, chunkSize: 4_096)
        #expect(actual.count == expected.count)
        #expect(zip(actual, expected).allSatisfy { $0 == $1 })
        #expect(CSVReference.records(crlf) == expected)
    }

    @Test func strayQuotesAreData() throws {
        let text = "\"ab\"cd,ef\",\"a\"\"\"b\",x\"y\"\n\"\"\"\",\"\",\n"
        let actual = try CSVRecordReaderTests.records(Array(text.utf8))
        #expect(actual.map(\.1) == CSVReference.records(Array(text.utf8)).map(\.fields))
        // Worked by hand: a quote after a closing quote keeps both as data.
        #expect(actual.map(\.1) == [["ab\"cd,ef", "a\"\"b", "x\"y\""], ["\"", nil, nil]])
    }

    @Test func anUnclosedQuoteTakesTheRestOfTheFile() throws {
        let text = "id,note\n1,\"open\n2,b\n"
        let rows = try CSVRecordReaderTests.records(Array(text.utf8), chunkSize: 3)
        #expect(rows.map(\.1) == [["id", "note"], ["1", "open\n2,b\n"]])
        #expect(rows[1].2 == "1,\"open\n2,b")
        #expect(CSVReference.records(Array(text.utf8)).map(\.fields) == rows.map(\.1))
    }

    @Test func crlfInsideAQuotedFieldIsDataAndRawJoinsLinesWithLF() throws {
        let text = "a,b\r\n1,\"x\r\ny\"\r\n2,z\r\n"
        let rows = try CSVRecordReaderTests.records(Array(text.utf8), chunkSize: 4)
        #expect(rows.map(\.0) == [1, 2, 4])
        #expect(rows[1].1 == ["1", "x\r\ny"])
        #expect(rows[1].2 == "1,\"x\ny\"")
        #expect(rows[2].1 == ["2", "z"])
    }

    /// libcsv ends a row at any CR; dayfold ends a record only at LF (or the
    /// end), and a lone CR run inside a line separates fields.
    @Test func aLoneCRInsideALineSeparatesFields() throws {
        let rows = try CSVRecordReaderTests.records(Array("a,b\rc\n\r,d\n\"q\"\r\r\"r\"\r\r\n".utf8))
        #expect(rows.map(\.1) == [["a", "b", "c"], [nil, "d"], ["q", "r"]])
        #expect(rows.map(\.0) == [1, 2, 3])
        #expect(rows.map(\.2) == ["a,b\rc", "\r,d", "\"q\"\r\r\"r\""])
    }

    /// libcsv would trim them; dayfold keeps spaces and tabs as data.
    @Test func spacesAndTabsAroundFieldsAreKept() throws {
        let rows = try CSVRecordReaderTests.records(Array(" \u{E9} ,\t\"q\" , \n".utf8))
        #expect(rows.map(\.1) == [[" \u{E9} ", "\t\"q\" ", " "]])
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

/// dayfold's CSV reading rules (SPEC §9, as `LibCSVParser` lists them),
/// read a byte at a time in one loop over the whole text: the reference the
/// tokenizer (the C plain-record loop, libcsv behind `LibCSVParser`, the
/// hand-overs between them and the reader's chunks) is checked against. It
/// shares no code with the product and does not use libcsv, so the check is
/// not libcsv against itself. The text must be valid UTF-8 (errors are
/// tested by hand).
enum CSVReference {
    struct Record: Equatable, CustomStringConvertible {
        var line: Int
        var fields: [String?]
        var raw: String
        var description: String { "\(line) \(fields) \(raw.debugDescription)" }
    }

    private static let comma = UInt8(ascii: ",")
    private static let quote = UInt8(ascii: "\"")
    private static let cr: UInt8 = 0x0D
    private static let lf: UInt8 = 0x0A

    static func records(_ input: [UInt8]) -> [Record] {
        let b = input.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(input.dropFirst(3)) : input
        let n = b.count
        var out: [Record] = []
        var i = 0
        var line = 1
        while true {
            // A line of only CRs and its LF is blank: skipped, counted as a line only.
            var first = i
            while first < n && b[first] == cr { first += 1 }
            if first == n { return out }
            if b[first] == lf {
                line += 1
                i = first + 1
                continue
            }
            let start = i
            let startLine = line
            var fields: [String?] = []
            var rawEnd = n
            i = first
            record: while true {
                var value: [UInt8] = []
                if i < n && b[i] == quote {
                    i += 1
                    while true {
                        guard i < n else {
                            // Still open at the end: it takes the rest; the raw
                            // text stops before the last line break.
                            fields.append(value.isEmpty ? nil : String(decoding: value, as: UTF8.self))
                            if rawEnd > start && b[rawEnd - 1] == lf { rawEnd -= 1 }
                            while rawEnd > start && b[rawEnd - 1] == cr { rawEnd -= 1 }
                            break record
                        }
                        if b[i] == quote {
                            let next: UInt8? = i + 1 < n ? b[i + 1] : nil
                            if next == nil || next == comma || next == cr || next == lf {
                                i += 1
                                break
                            }
                            // `""` is one quote; a quote before anything else is data.
                            value.append(quote)
                            i += next == quote ? 2 : 1
                            continue
                        }
                        if b[i] == lf { line += 1 }
                        value.append(b[i])
                        i += 1
                    }
                } else {
                    // Unquoted: a quote is data; spaces are kept.
                    while i < n && b[i] != comma && b[i] != cr && b[i] != lf {
                        value.append(b[i])
                        i += 1
                    }
                }
                fields.append(value.isEmpty ? nil : String(decoding: value, as: UTF8.self))
                guard i < n else { break }
                if b[i] == comma {
                    i += 1
                    continue
                }
                if b[i] == lf {
                    rawEnd = i
                    line += 1
                    i += 1
                    break
                }
                // A CR run: with LF after it (or the end) it ends the record;
                // alone inside a line it separates fields.
                var r = i
                while r < n && b[r] == cr { r += 1 }
                if r == n || b[r] == lf {
                    rawEnd = i
                    if r < n { line += 1 }
                    i = min(r + 1, n)
                    break
                }
                i = r
            }
            // The raw text shows the record's lines joined by LF (a CR run before an LF dropped).
            var raw: [UInt8] = []
            var k = start
            while k < rawEnd {
                var r = k
                while r < rawEnd && b[r] == cr { r += 1 }
                if r > k && r < rawEnd && b[r] == lf {
                    k = r
                    continue
                }
                raw.append(b[k])
                k += 1
            }
            out.append(Record(line: startLine, fields: fields, raw: String(decoding: raw, as: UTF8.self)))
        }
    }
}
