import Foundation
import Testing

@testable import DayfoldCore

/// The reader on the real fixtures in `<repo>/../shared` (see its SOURCES.md).
///
/// Expected counts were established independently of this reader: a Python
/// script counting direct children of `HealthData` with
/// `xml.etree.ElementTree.iterparse` (depth-tracked), cross-checked with
/// `grep -c '^ <Record'`, and for the conformance export with
/// `expected/accounting.json` (`rows_read` 451).
@Suite(.enabled(if: HealthXMLTestSupport.sharedIsPresent, "needs <repo>/../shared"))
struct AppleHealthXMLReaderFixtureTests {
    struct Expectation: Sendable, CustomStringConvertible {
        var file: String
        var countsByName: [String: Int]
        var description: String { file }
    }

    static let wellFormed: [Expectation] = [
        Expectation(
            file: "ashtom-hkimport-export.xml",
            countsByName: ["ExportDate": 1, "Me": 1, "Record": 10_939, "Correlation": 34, "Workout": 61]),
        Expectation(
            file: "dogsheep-healthkit-to-sqlite-export.xml",
            countsByName: ["ExportDate": 1, "Me": 1, "Record": 2, "Workout": 1, "ActivitySummary": 2]),
        Expectation(
            file: "rinoshiyo-apple-health-mcp-server-sample_export.xml",
            countsByName: [
                "ExportDate": 1, "Me": 1, "Record": 6, "Workout": 1, "ActivitySummary": 1, "Correlation": 1,
            ]),
    ]

    @Test(arguments: wellFormed)
    func wellFormedFixtureReportsEveryTopLevelElement(_ expectation: Expectation) throws {
        let path = HealthXMLTestSupport.fixture(expectation.file)
        let (result, elements) = try HealthXMLTestSupport.read(path: path)
        #expect(result == .read)
        #expect(Dictionary(grouping: elements, by: \.name).mapValues(\.count) == expectation.countsByName)
        try expectLinesAndRawMatchTheFile(elements, path: path)
    }

    @Test func nestedCorrelationRecordsAreNotReported() throws {
        // 11,101 `<Record` start tags in the file, 162 of them inside the 34 food correlations.
        let path = HealthXMLTestSupport.fixture("ashtom-hkimport-export.xml")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.components(separatedBy: "<Record ").count - 1 == 11_101)
        let records = try HealthXMLTestSupport.read(path: path).elements.filter { $0.name == "Record" }
        #expect(records.count == 10_939)
        #expect(records.allSatisfy { $0.raw.hasPrefix(" <Record ") })
    }

    @Test func bloodPressureRecordsInsideACorrelationAreReportedOnceAtTopLevel() throws {
        let path = HealthXMLTestSupport.fixture("rinoshiyo-apple-health-mcp-server-sample_export.xml")
        let elements = try HealthXMLTestSupport.read(path: path).elements
        let bloodPressure = elements.filter { $0.type?.contains("BloodPressure") == true }
        // Two top-level Records and the Correlation; the copies nested in the Correlation are not rows.
        #expect(bloodPressure.map(\.name).sorted() == ["Correlation", "Record", "Record"])
    }

    @Test func recordAttributesAreHandedThroughAsWritten() throws {
        let path = HealthXMLTestSupport.fixture("dogsheep-healthkit-to-sqlite-export.xml")
        let elements = try HealthXMLTestSupport.read(path: path).elements
        let heartRate = try #require(elements.first { $0.type == "HKQuantityTypeIdentifierHeartRate" })
        #expect(heartRate.unit == "count/min")
        #expect(heartRate.sourceName == "Apple\u{00A0}Watch")  // the no-break space is in the file
        #expect(heartRate.device?.hasPrefix("<<HKDevice: 0x") == true)  // entity references decoded
        #expect(heartRate.startDate?.count == "2017-03-30 09:29:00 +0200".count)
        let workout = try #require(elements.first { $0.name == "Workout" })
        #expect(workout.value == nil)
    }

    @Test func notWellFormedFixtureThrowsWithTheLineOfTheStrayEndTag() throws {
        let path = HealthXMLTestSupport.fixture("ashtom-hkimport-exportSmall.xml")
        var reported = 0
        let error = #expect(throws: HealthXMLError.self) {
            _ = try AppleHealthXMLReader.read(FileByteStream(path: path)) { _ in reported += 1 }
        }
        #expect(error?.line == 153)
        #expect(error?.detail == "mismatched tag")
        // The 19 elements before line 153 were streamed before the error; the caller drops them.
        #expect(reported == 19)
    }

    @Test(arguments: [7, 4096, 1 << 20])
    func conformanceExportWithAMalformedDTDReadsAll451Rows(chunkSize: Int) throws {
        let path = HealthXMLTestSupport.conformanceExport
        let (result, elements) = try HealthXMLTestSupport.read(path: path, chunkSize: chunkSize)
        #expect(result == .read)
        #expect(elements.count == 451)
        #expect(
            Dictionary(grouping: elements, by: \.name).mapValues(\.count)
                == ["ExportDate": 1, "Me": 1, "Record": 437, "Workout": 6, "Correlation": 6])
        #expect(elements.first?.line == 10)  // the 7-line DTD is blanked, not removed
        try expectLinesAndRawMatchTheFile(elements, path: path)
    }

    @Test func conformanceRejectRowsHaveTheExpectedLineAndRaw() throws {
        let rejects = try String(
            contentsOfFile: HealthXMLTestSupport.conformance("expected/rejects/rejects.csv"), encoding: .utf8)
        let expected = HealthXMLTestSupport.csvRows(rejects)
            .filter { $0.first == "health/41b07915-7a6d-4ff3-984a-e56db93ba169/export.xml" }
            .map { (line: Int($0[1]) ?? -1, raw: $0[4]) }
        #expect(expected.map(\.line) == [466, 467, 492])
        let elements = try HealthXMLTestSupport.read(path: HealthXMLTestSupport.conformanceExport).elements
        for row in expected {
            let element = try #require(elements.first { $0.line == row.line })
            #expect(element.raw == row.raw)
        }
    }

    @Test func clinicalDocumentIsSkippedWithoutReportingAnything() throws {
        let path = HealthXMLTestSupport.conformance(
            "drop/health/41b07915-7a6d-4ff3-984a-e56db93ba169/export_cda.xml")
        let (result, elements) = try HealthXMLTestSupport.read(path: path)
        #expect(result == .skipped(root: "ClinicalDocument"))
        #expect(elements.isEmpty)
    }

    @Test func truncatedZstdExportThrowsTheByteStreamError() throws {
        let path = HealthXMLTestSupport.conformance(
            "drop/health/1428dfad-70ce-4993-8498-d7d67c213c12/export.xml.zst")
        let error = #expect(throws: ByteStreamError.self) {
            _ = try AppleHealthXMLReader.read(openByteStream(path: path)) { _ in }
        }
        #expect(error?.kind == .zstd)
    }

    /// Every element's `line` is the line of its start tag and `raw` is that
    /// physical line (the lines through the tag's end when the tag spans several).
    private func expectLinesAndRawMatchTheFile(_ elements: [HealthXMLElement], path: String) throws {
        let lines = try HealthXMLTestSupport.lines(of: path)
        for element in elements {
            let first = element.line - 1
            let count = element.raw.split(separator: "\n", omittingEmptySubsequences: false).count
            try #require(first >= 0 && first + count <= lines.count)
            #expect(element.raw == lines[first..<(first + count)].joined(separator: "\n"), "line \(element.line)")
            #expect(lines[first].contains("<\(element.name)"), "line \(element.line)")
        }
    }

    @Test func startTagSpanningLinesIsQuotedThroughItsEnd() throws {
        let path = HealthXMLTestSupport.fixture("rinoshiyo-apple-health-mcp-server-sample_export.xml")
        let me = try #require(try HealthXMLTestSupport.read(path: path).elements.first { $0.name == "Me" })
        #expect(me.line == 14)
        #expect(me.raw.hasPrefix(" <Me HKCharacteristicTypeIdentifierDateOfBirth=\"1990-01-01\"\n"))
        #expect(me.raw.hasSuffix("HKCharacteristicTypeIdentifierCardioFitnessMedicationsUse=\"None\"/>"))
    }
}
