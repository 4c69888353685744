import Foundation
import Testing

@testable import DayfoldCore

/// SPEC §10: a record longer than the limit, or a file that never ends a
/// record, is an unreadable file reported with its line, and the reader never
/// holds much more than the limit, whatever the file's size.
@Suite struct CSVRecordLimitTests {
    /// A stream of `header` then `count` chunks of `byte`, made as it is read.
    final class GeneratedStream: ByteStream {
        private var header: [UInt8]?
        private let chunk: [UInt8]
        private var left: Int
        private(set) var chunksRead = 0

        init(header: String, byte: UInt8, chunkSize: Int, count: Int) {
            self.header = Array(header.utf8)
            chunk = [UInt8](repeating: byte, count: chunkSize)
            left = count
        }

        func nextChunk() throws -> [UInt8]? {
            if let header {
                self.header = nil
                return header
            }
            guard left > 0 else { return nil }
            left -= 1
            chunksRead += 1
            return chunk
        }
    }

    static func records(_ reader: CSVRecordReader) throws -> [(line: Int, fields: Int)] {
        var seen: [(Int, Int)] = []
        try reader.forEachRecord { seen.append(($0.line, $0.fieldCount)) }
        return seen
    }

    static func error(_ body: () throws -> Void) -> CSVReadError? {
        do {
            try body()
            return nil
        } catch let error as CSVReadError {
            return error
        } catch {
            return nil
        }
    }

    @Test func aFileOfNULBytesStopsAtTheLimitNotAtItsEnd() throws {
        // 1 GB of NULs in 4 KB chunks; a 64 KB limit stops reading after about 64 KB.
        let stream = GeneratedStream(header: "a,b\n", byte: 0, chunkSize: 4096, count: 1 << 18)
        let reader = try CSVRecordReader(stream: stream, path: "t/nul.csv", recordLimit: 64 << 10)
        let failure = try #require(Self.error { _ = try Self.records(reader) })
        #expect(failure.line == 2)
        #expect(failure.description.hasPrefix("t/nul.csv:2:1: record longer than 65536 bytes"))
        #expect(stream.chunksRead < 40, "read \(stream.chunksRead) chunks")
    }

    @Test func aQuoteNeverClosedFailsWithTheLineWhereItOpened() throws {
        let text = "a,b\n1,2\n3,\"" + String(repeating: "x\n", count: 600)
        let reader = try CSVRecordReader(
            stream: GeneratedStream(header: text, byte: 0x78, chunkSize: 1, count: 0), path: "q.csv",
            recordLimit: 1000)
        let failure = try #require(Self.error { _ = try Self.records(reader) })
        #expect(failure.line == 3)
    }

    @Test func aRecordJustOverTheLimitFailsAndOneAtItIsRead() throws {
        let limit = 200
        for (length, fails) in [(limit - 4, false), (limit + 10, true)] {
            // "1,<field>\n" is length + 3 bytes; the next record ends the file.
            let text = "a,b\n1," + String(repeating: "y", count: length) + "\n2,z\n"
            let reader = try CSVRecordReader(
                stream: GeneratedStream(header: text, byte: 0, chunkSize: 1, count: 0), path: "r.csv",
                recordLimit: limit)
            if fails {
                #expect(Self.error { _ = try Self.records(reader) }?.line == 2)
            } else {
                #expect(try Self.records(reader).map(\.line) == [1, 2, 3])
            }
        }
    }

    @Test func theDefaultLimitIs64MiB() {
        #expect(CSVRecordReader.defaultRecordLimit == 64 << 20)
    }
}
