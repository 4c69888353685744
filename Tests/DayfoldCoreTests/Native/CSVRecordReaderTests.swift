import Foundation
import Testing

@testable import DayfoldCore

@Suite struct CSVRecordReaderTests {
    /// Reads `text` as a CSV file: (line, fields, raw) per record.
    static func records(_ bytes: [UInt8], chunkSize: Int = 1 << 20) throws -> [(Int, [String?], String)] {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("file.csv").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let reader = try CSVRecordReader(stream: try FileByteStream(path: path, chunkSize: chunkSize), path: "file.csv")
        var out: [(Int, [String?], String)] = []
        try reader.forEachRecord { record in
            out.append((record.line, (0..<record.fieldCount).map { record.string($0) }, record.raw))
        }
        return out
    }

    @Test func bomIsIgnoredAndCRLFEndsRecords() throws {
        let rows = try Self.records(Array("\u{FEFF}a,b\r\n1,2\r\n".utf8))
        #expect(rows.map(\.1) == [["a", "b"], ["1", "2"]])
    }

    @Test func quotedNewlineKeepsTheStartLine() throws {
        let text = "id,note\n1,\"two\nlines\"\n2,\"say \"\"hi\"\"\"\n"
        let rows = try Self.records(Array(text.utf8), chunkSize: 5)
        #expect(rows.map(\.0) == [1, 2, 4])
        #expect(rows[1].1 == ["1", "two\nlines"])
        #expect(rows[1].2 == "1,\"two\nlines\"")
        #expect(rows[2].1 == ["2", "say \"hi\""])
    }

    @Test func blankLinesAreSkippedAndEmptyFieldsAreNull() throws {
        let rows = try Self.records(Array("a,b,c\n\n1,,\"\"\n\r\n2, x ,3".utf8))
        #expect(rows.map(\.0) == [1, 3, 5])
        #expect(rows[1].1 == ["1", nil, nil])
        #expect(rows[2].1 == ["2", " x ", "3"])
    }

    @Test func invalidUTF8FailsWithLineAndColumn() throws {
        var bytes = Array("a,b\n1,2\n3,".utf8)
        bytes += [0xFF, 0xFE, 0x0A]
        #expect {
            _ = try Self.records(bytes)
        } throws: { error in
            guard let error = error as? CSVReadError else { return false }
            return error.line == 3 && error.column == 3 && error.description.contains("invalid UTF-8")
        }
    }

    @Test func aTenMegabyteFieldIsRead() throws {
        let big = String(repeating: "x", count: 10 << 20)
        let rows = try Self.records(Array("a,b\n1,\"\(big)\"\n".utf8), chunkSize: 1 << 16)
        #expect(rows.count == 2)
        #expect(rows[1].1[1]?.utf8.count == 10 << 20)
    }

    @Test func emptyFileHasNoRecords() throws {
        #expect(try Self.records([]).isEmpty)
    }

    /// The look-ahead hook sees every record once, `lookahead` records
    /// before the body (or at its batch's start), with the same fields.
    @Test func recordsAreSeenAheadOfTheBodyOnce() throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("file.csv").path
        let rows = 10_000
        let text = (0..<rows).map { "id-\($0),\"x,\($0)\"\n" }.joined()
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let reader = try CSVRecordReader(stream: try FileByteStream(path: path, chunkSize: 4096), path: "file.csv")
        reader.batchRecords = 1000
        var seen: [String] = []
        var read = 0
        var maxLead = 0
        let ahead: (CSVRecordBatch, Int) -> Void = { batch, record in
            let range = batch.fieldRange(record, 1) ?? 0..<0
            seen.append(String(decoding: batch.bytes[range], as: UTF8.self))
            #expect(batch.fieldRange(record, 2) == nil)
        }
        try reader.forEachRecord(ahead: ahead) { record in
            #expect(seen.count > read)
            #expect(seen[read] == record.string(1))
            maxLead = max(maxLead, seen.count - read)
            read += 1
        }
        #expect(read == rows)
        #expect(seen.count == rows)
        #expect(maxLead == CSVRecordReader.lookahead + 1)
    }

    private static func copied(_ span: Span<UInt8>) -> [UInt8] { span.indices.map { span[$0] } }

    /// `withField` reads through a pointer taken when the record's buffer is
    /// set: it must see every batch's bytes (many small batches here, quoted
    /// fields moved into the batch's extras) and a hand-built record's after
    /// each field (the buffer grows and moves), as `slice` does.
    @Test func fieldsReadInPlaceAreTheSlicesOfEveryBatch() throws {
        var text = "id,note,amount\n"
        for row in 0..<400 { text += "id-\(row),\"n,\"\"\(row)\"\"\",\(row).5\n" }
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("file.csv").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let reader = try CSVRecordReader(stream: try FileByteStream(path: path, chunkSize: 64), path: "file.csv")
        var records = 0
        try reader.forEachRecord { record in
            for field in 0..<record.fieldCount {
                let inPlace = record.withField(field) { Self.copied($0) }
                #expect(inPlace == Array(record.slice(field) ?? []))
            }
            if records > 0, case .value(let amount) = record.number(2) {
                #expect(amount == Double(records - 1) + 0.5)
            } else if records > 0 {
                Issue.record("row \(records): amount not read as a number")
            }
            records += 1
        }
        #expect(records == 401)

        let record = CSVRecord()
        var values: [[UInt8]] = []
        for field in 0..<200 {
            let value = Array("value \(field) ".utf8) + [UInt8](repeating: 0x41, count: field % 17)
            record.appendField(value)
            values.append(value)
            for earlier in 0...field { #expect(record.withField(earlier) { Self.copied($0) } == values[earlier]) }
        }
    }
}
