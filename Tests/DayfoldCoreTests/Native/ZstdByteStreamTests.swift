import Foundation
import Testing

@testable import DayfoldCore

@Suite struct ZstdByteStreamTests {
    func compress(_ text: String, in directory: URL) throws -> URL {
        let plain = directory.appendingPathComponent("data.csv")
        try Data(text.utf8).write(to: plain)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/zstd")
        process.arguments = ["-q", "-f", plain.path, "-o", plain.path + ".zst"]
        try process.run()
        process.waitUntilExit()
        return URL(fileURLWithPath: plain.path + ".zst")
    }

    func readAll(_ path: String) throws -> [UInt8] {
        let stream = try openByteStream(path: path, chunkSize: 7)
        var out: [UInt8] = []
        while let chunk = try stream.nextChunk() { out += chunk }
        return out
    }

    @Test func decompressesAsAStream() throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let text = (0..<5000).map { "row,\($0)\n" }.joined()
        let file = try compress(text, in: directory)
        #expect(try readAll(file.path) == Array(text.utf8))
    }

    @Test func truncatedStreamIsAnError() throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = try compress((0..<5000).map { "row,\($0)\n" }.joined(), in: directory)
        let bytes = try Data(contentsOf: file)
        try bytes.prefix(bytes.count / 2).write(to: file)
        #expect(throws: ByteStreamError.self) { _ = try readAll(file.path) }
    }

    @Test func aFileThatIsNotZstdIsAnError() throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("x.csv.zst")
        try Data("id,name\n1,a\n".utf8).write(to: file)
        #expect(throws: ByteStreamError.self) { _ = try readAll(file.path) }
    }
}
