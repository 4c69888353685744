import Foundation
import Testing

@testable import DayfoldCore

/// The ingestor's fallback (issue 24): a file the fast reader hands to expat
/// after yielding rows gives exactly the rows, rejects and day figures of
/// the fast read of the same file without the odd construct; a malformed
/// file is a failed import at expat's line.
@Suite(.enabled(if: HealthXMLTestSupport.sharedIsPresent, "needs <repo>/../shared"))
struct HealthXMLFallbackIngestTests {
    static let user = "41b07915-7a6d-4ff3-984a-e56db93ba169"

    /// Ingests a drop holding `bytes` as the user's export.xml; a summary of what the drop kept.
    static func ingest(_ bytes: [UInt8]) throws -> (summary: [String], drop: IngestedDrop) {
        let root = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let folder = root.appendingPathComponent("health/\(user)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(bytes).write(to: folder.appendingPathComponent("export.xml"))
        let asOf = try #require(parseAsOf("2017-12-31T00:00:00Z"))
        let drop = try PipelineRunner.ingest(input: root.path, config: PipelineConfig(), asOf: asOf, hashInputs: false)
        var summary = drop.accounts.map {
            "\($0.path) \($0.rowsRead) \($0.accepted) \($0.duplicate) \($0.ignored) \($0.rejected) \(String(describing: $0.failed))"
        }
        summary += drop.rejects.map { "\($0.line) \($0.reason) \($0.raw)" }
        for (user, days) in drop.healthDays {
            for (date, day) in days.sorted(by: { $0.key < $1.key }) {
                let values = Metric.registered.map { String(describing: day.value($0)) }
                summary.append("\(user) \(date) \(day.records) \(values.joined(separator: " "))")
            }
        }
        return (summary, drop)
    }

    /// The ashtom export with its first three step counts made rejects (a
    /// non-numeric value, a bad start, an unknown unit).
    static func export() throws -> [UInt8] {
        var text = try String(
            contentsOfFile: HealthXMLTestSupport.fixture("ashtom-hkimport-export.xml"), encoding: .utf8)
        var from = text.startIndex
        for (attribute, spoiled) in [("value=\"", "x"), ("startDate=\"", "O"), ("unit=\"", "stone-")] {
            let type = try #require(
                text.range(of: "type=\"HKQuantityTypeIdentifierStepCount\"", range: from..<text.endIndex))
            let line = try #require(text.range(of: "\n", range: type.upperBound..<text.endIndex))
            let value = try #require(text.range(of: attribute, range: type.lowerBound..<line.lowerBound))
            // Indexes do not survive the insertion: go on from a byte offset.
            let offset = text.utf8.distance(from: text.startIndex, to: value.upperBound)
            text.insert(contentsOf: spoiled, at: value.upperBound)
            from = text.utf8.index(text.startIndex, offsetBy: offset + spoiled.utf8.count)
        }
        return Array(text.utf8)
    }

    @Test func aFileHandedToExpatAfterItsRowsGivesTheFastReadsRows() throws {
        let plain = try Self.export()
        let (fast, fastDrop) = try Self.ingest(plain)
        #expect(fastDrop.rejects.count == 3)
        // A comment before the root's end tag, on its line: the fast read
        // yields every row, then hands the file to expat.
        var text = String(decoding: plain, as: UTF8.self)
        let end = try #require(text.range(of: "</HealthData>", options: .backwards))
        text.replaceSubrange(end, with: "<!-- handed over --></HealthData>")
        let (handed, _) = try Self.ingest(Array(text.utf8))
        #expect(handed == fast)
    }

    @Test func aMalformedFileIsAFailedImportAtExpatsLine() throws {
        var text = String(decoding: try Self.export(), as: UTF8.self)
        let end = try #require(text.range(of: "</HealthData>", options: .backwards))
        text.replaceSubrange(end, with: "</HealthDat>")
        let line = text[..<end.lowerBound].filter { $0 == "\n" }.count + 1
        let (_, drop) = try Self.ingest(Array(text.utf8))
        #expect(drop.failedImports == [Self.user])
        #expect(drop.rejects.map(\.line) == [line])
        #expect(drop.rejects.map(\.reason) == ["import_failed:malformed_xml"])
        #expect(drop.accounts.first?.failed?.contains("mismatched tag") == true)
    }
}
