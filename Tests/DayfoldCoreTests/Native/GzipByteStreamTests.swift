import Foundation
import Testing

@testable import DayfoldCore

/// `*.csv.gz` is read like `*.csv.zst` (SPEC §10): streamed through zlib,
/// concatenated members read in turn, and a damaged stream an error.
@Suite struct GzipByteStreamTests {
    static func gzipped(_ text: String, in folder: URL, name: String) throws -> URL {
        let plain = folder.appendingPathComponent(name)
        try Data(text.utf8).write(to: plain)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/gzip")
        process.arguments = ["-n", plain.path]
        try process.run()
        process.waitUntilExit()
        return folder.appendingPathComponent(name + ".gz")
    }

    static func readAll(_ path: String) throws -> [UInt8] {
        let stream = try openByteStream(path: path, chunkSize: 7)
        var bytes: [UInt8] = []
        while let chunk = try stream.nextChunk() { bytes += chunk }
        return bytes
    }

    @Test func decompressesConcatenatedMembersInTurn() throws {
        let folder = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = try Self.gzipped("a,b\n1,2\n", in: folder, name: "one.csv")
        let second = try Self.gzipped(String(repeating: "3,4\n", count: 5000), in: folder, name: "two.csv")
        let both = folder.appendingPathComponent("both.csv.gz")
        try (Data(contentsOf: first) + Data(contentsOf: second)).write(to: both)
        let text = String(decoding: try Self.readAll(both.path), as: UTF8.self)
        #expect(text == "a,b\n1,2\n" + String(repeating: "3,4\n", count: 5000))
    }

    @Test func aTruncatedOrForeignStreamIsAnErrorWithZlibsMessage() throws {
        let folder = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try Self.gzipped(String(repeating: "5,6\n", count: 2000), in: folder, name: "t.csv")
        let bytes = try Data(contentsOf: file)
        try bytes.prefix(bytes.count - 9).write(to: file)
        #expect(throws: ByteStreamError.self) { _ = try Self.readAll(file.path) }
        do {
            _ = try Self.readAll(file.path)
        } catch let error as ByteStreamError {
            #expect(error.kind == .gzip)
            #expect(error.detail.contains("truncated"))
        }
        let foreign = folder.appendingPathComponent("plain.csv.gz")
        try Data("a,b\n1,2\n".utf8).write(to: foreign)
        do {
            _ = try Self.readAll(foreign.path)
            Issue.record("plain text read as gzip")
        } catch let error as ByteStreamError {
            #expect(error.kind == .gzip)
            #expect(error.detail == "inflate: incorrect header check")
        }
    }
}
