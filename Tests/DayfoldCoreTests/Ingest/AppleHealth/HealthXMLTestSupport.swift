import Foundation

@testable import DayfoldCore

/// Paths and helpers shared by the Apple Health XML reader tests.
enum HealthXMLTestSupport {
    /// `<repo>/../shared`: the fixtures live beside the repository, not in it.
    static let shared: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // …/Tests/DayfoldCoreTests/Ingest/AppleHealth
        .deletingLastPathComponent()  // …/Tests/DayfoldCoreTests/Ingest
        .deletingLastPathComponent()  // …/Tests/DayfoldCoreTests
        .deletingLastPathComponent()  // …/Tests
        .deletingLastPathComponent()  // the repository root
        .deletingLastPathComponent()  // the folder holding the repository and shared/
        .appendingPathComponent("shared")

    static var sharedIsPresent: Bool { FileManager.default.fileExists(atPath: shared.path) }

    static func fixture(_ name: String) -> String {
        shared.appendingPathComponent("fixtures/apple-health/\(name)").path
    }

    static func conformance(_ relativePath: String) -> String {
        shared.appendingPathComponent("conformance/\(relativePath)").path
    }

    static let conformanceExport = conformance(
        "drop/health/41b07915-7a6d-4ff3-984a-e56db93ba169/export.xml")

    /// Reads `path` (plain files through `FileByteStream` with `chunkSize`, so
    /// chunk boundaries fall everywhere) and collects the reported elements.
    static func read(
        path: String, chunkSize: Int = 1 << 20
    ) throws -> (result: HealthXMLReadResult, elements: [HealthXMLElement]) {
        let stream: ByteStream =
            path.hasSuffix(".zst")
            ? try openByteStream(path: path, chunkSize: chunkSize)
            : try FileByteStream(path: path, chunkSize: chunkSize)
        var elements: [HealthXMLElement] = []
        let result = try AppleHealthXMLReader.read(stream) { elements.append($0) }
        return (result, elements)
    }

    /// Writes `text` to a new temporary file and reads it.
    static func read(
        xml text: String, chunkSize: Int = 1 << 20
    ) throws -> (result: HealthXMLReadResult, elements: [HealthXMLElement]) {
        try read(bytes: Array(text.utf8), chunkSize: chunkSize)
    }

    static func read(
        bytes: [UInt8], chunkSize: Int = 1 << 20
    ) throws -> (result: HealthXMLReadResult, elements: [HealthXMLElement]) {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("dayfold-healthxml-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("export.xml")
        try Data(bytes).write(to: file)
        return try read(path: file.path, chunkSize: chunkSize)
    }

    /// The physical lines of a file (split on `\n`, `\r` dropped), 1-based through `[line - 1]`.
    static func lines(of path: String) throws -> [String] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        return text.split(separator: "\n", omittingEmptySubsequences: false).map {
            $0.hasSuffix("\r") ? String($0.dropLast()) : String($0)
        }
    }

    /// Parses the rows of an RFC 4180 CSV text (quoted fields, doubled quotes).
    static func csvRows(_ text: String) -> [[String]] {
        var rows: [[String]] = []
        var row: [String] = []
        var field = ""
        var inQuotes = false
        var iterator = Array(text).makeIterator()
        var lookahead: Character? = iterator.next()
        while let character = lookahead {
            lookahead = iterator.next()
            if inQuotes {
                if character == "\"" {
                    if lookahead == "\"" {
                        field.append("\"")
                        lookahead = iterator.next()
                    } else {
                        inQuotes = false
                    }
                } else {
                    field.append(character)
                }
            } else if character == "\"" {
                inQuotes = true
            } else if character == "," {
                row.append(field)
                field = ""
            } else if character == "\n" || character == "\r\n" {
                row.append(field)
                rows.append(row)
                row = []
                field = ""
            } else {
                field.append(character)
            }
        }
        if !field.isEmpty || !row.isEmpty {
            row.append(field)
            rows.append(row)
        }
        return rows
    }
}

/// A stream over bytes in memory, in chunks of `chunkSize`.
final class HealthXMLChunkedStream: ByteStream {
    private let bytes: [UInt8]
    private let chunkSize: Int
    private var position = 0

    init(_ bytes: [UInt8], chunkSize: Int) {
        self.bytes = bytes
        self.chunkSize = chunkSize
    }

    func nextChunk() throws -> [UInt8]? {
        guard position < bytes.count else { return nil }
        let end = min(bytes.count, position + chunkSize)
        defer { position = end }
        return Array(bytes[position..<end])
    }
}
