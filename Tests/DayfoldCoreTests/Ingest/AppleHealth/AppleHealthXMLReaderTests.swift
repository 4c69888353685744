import Foundation
import Testing

@testable import DayfoldCore

/// Hand-made exports for the reading rules of SPEC §1.5 and §9; each is written
/// to a temporary file and read in chunks of 1 byte, 5 bytes and 1 MiB so
/// chunk boundaries fall inside tags, lines and the DTD.
@Suite struct AppleHealthXMLReaderTests {
    static let chunkSizes = [1, 5, 1 << 20]

    static let record =
        #"<Record type="HKQuantityTypeIdentifierStepCount" sourceName="iPhone" sourceVersion="17.2" unit="count" creationDate="2026-03-24 06:10:00 +0100" startDate="2026-03-24 06:00:00 +0100" endDate="2026-03-24 06:10:00 +0100" value="777"/>"#

    @Test(arguments: chunkSizes)
    func malformedInlineDTDIsIgnoredAndLinesStayThoseOfTheFile(chunkSize: Int) throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE HealthData [
            <!-- HealthKit Export Version: 14 ]> not the end -->
            <!ATTLIST Record
              type CDATA #REQUIRED
              unit CDATA #IMPLIED
            <!ELEMENT Correlation ANY>
            ]>
            <HealthData locale="en_US">
             <ExportDate value="2026-03-29 11:30:00 +0200"/>
             \(Self.record)
            </HealthData>
            """
        let (result, elements) = try HealthXMLTestSupport.read(xml: xml, chunkSize: chunkSize)
        #expect(result == .read)
        #expect(elements.map(\.name) == ["ExportDate", "Record"])
        #expect(elements.map(\.line) == [10, 11])
        #expect(elements.last?.raw == " " + Self.record)
        #expect(elements.last?.value == "777")
        #expect(elements.last?.startDate == "2026-03-24 06:00:00 +0100")
    }

    @Test(arguments: [
        "<!DOCTYPE HealthData>",
        #"<!DOCTYPE HealthData SYSTEM "health[1].dtd">"#,
        "<!DOCTYPE HealthData [\n<!ELEMENT HealthData ANY>\n]  >",
        "<!-- <!DOCTYPE in a comment --><!DOCTYPE HealthData [ <?pi ]> ?> ]>",
    ])
    func doctypeVariantsAreIgnored(doctype: String) throws {
        let xml = "<?xml version=\"1.0\"?>\n\(doctype)\n<HealthData>\n \(Self.record)\n</HealthData>\n"
        let expectedLine = 3 + doctype.filter { $0 == "\n" }.count + 1
        for chunkSize in Self.chunkSizes {
            let (result, elements) = try HealthXMLTestSupport.read(xml: xml, chunkSize: chunkSize)
            #expect(result == .read)
            #expect(elements.map(\.line) == [expectedLine])
        }
    }

    @Test(arguments: chunkSizes)
    func nestedElementsAreNotReported(chunkSize: Int) throws {
        let xml = """
            <HealthData>
             <Correlation type="HKCorrelationTypeIdentifierFood" startDate="a" endDate="b">
              <MetadataEntry key="HKFoodType" value="Lunch"/>
              <Record type="HKQuantityTypeIdentifierDietaryProtein" unit="g" value="3"/>
             </Correlation>
             <Record type="HKQuantityTypeIdentifierDietaryProtein" unit="g" value="3">
              <MetadataEntry key="HKWasUserEntered" value="1"/>
             </Record>
             <Workout workoutActivityType="HKWorkoutActivityTypeRunning"><WorkoutEvent type="x"/></Workout>
            </HealthData>
            """
        let elements = try HealthXMLTestSupport.read(xml: xml, chunkSize: chunkSize).elements
        #expect(elements.map(\.name) == ["Correlation", "Record", "Workout"])
        #expect(elements.map(\.line) == [2, 6, 9])
        #expect(elements[0].type == "HKCorrelationTypeIdentifierFood")
        #expect(elements[0].raw == #" <Correlation type="HKCorrelationTypeIdentifierFood" startDate="a" endDate="b">"#)
        #expect(elements[2].raw.hasSuffix("</Workout>"))
    }

    @Test(arguments: chunkSizes)
    func notWellFormedAfterTheDTDThrowsWithItsLine(chunkSize: Int) throws {
        let xml =
            "<!DOCTYPE HealthData [\n<!ATTLIST Record\n]>\n<HealthData>\n \(Self.record)\n </Record>\n</HealthData>\n"
        let error = #expect(throws: HealthXMLError.self) {
            _ = try HealthXMLTestSupport.read(xml: xml, chunkSize: chunkSize)
        }
        #expect(error?.line == 6)
        #expect(error?.detail == "mismatched tag")
    }

    @Test(
        arguments: [
            ("", 1, "no element found"),
            ("<HealthData>\n <Record type=\"a\"/>\n", 3, "no element found"),
            ("<HealthData>\n <Record type=\"a\n", 2, "unclosed token"),
            ("<HealthData>\n <Record type=\"a&bogus;\"/>\n</HealthData>", 2, "undefined entity"),
        ] as [(String, Int, String)])
    func truncatedOrBrokenDocumentsThrow(xml: String, line: Int, detail: String) throws {
        let error = #expect(throws: HealthXMLError.self) { _ = try HealthXMLTestSupport.read(xml: xml) }
        #expect(error?.line == line)
        #expect(error?.detail == detail)
    }

    @Test func invalidUTF8Throws() throws {
        let bytes =
            Array("<HealthData>\n <Record sourceName=\"".utf8) + [0xC3, 0x28] + Array("\"/>\n</HealthData>".utf8)
        let error = #expect(throws: HealthXMLError.self) { _ = try HealthXMLTestSupport.read(bytes: bytes) }
        #expect(error?.line == 2)
    }

    @Test(arguments: chunkSizes)
    func otherRootIsSkippedBeforeAnyErrorAfterIt(chunkSize: Int) throws {
        let xml =
            "<?xml version=\"1.0\"?>\n<ClinicalDocument xmlns=\"urn:hl7-org:v3\">\n <component>\n</ClinicalDocument>\n"
        let (result, elements) = try HealthXMLTestSupport.read(xml: xml, chunkSize: chunkSize)
        #expect(result == .skipped(root: "ClinicalDocument"))
        #expect(elements.isEmpty)
    }

    @Test(arguments: chunkSizes)
    func crlfLinesAndSeveralElementsOnOneLine(chunkSize: Int) throws {
        let xml = "<HealthData>\r\n <Me/><ExportDate value=\"x\"/>\r\n<Record type=\"a\"\r\n value=\"1\"/></HealthData>"
        let elements = try HealthXMLTestSupport.read(xml: xml, chunkSize: chunkSize).elements
        #expect(elements.map(\.line) == [2, 2, 3])
        #expect(elements[0].raw == #" <Me/><ExportDate value="x"/>"#)
        #expect(elements[1].raw == elements[0].raw)
        #expect(elements[2].raw == "<Record type=\"a\"\r\n value=\"1\"/></HealthData>")
        #expect(elements[2].value == "1")
    }

    @Test(arguments: chunkSizes)
    func attributeValuesAreDecoded(chunkSize: Int) throws {
        let xml = """
            <HealthData><Record type="t" sourceName="Simon’s &amp; iPhone" device="&lt;&lt;HKDevice: 0x1&gt;, name:Watch&gt;" unit='mg' value="1"/></HealthData>
            """
        let record = try #require(try HealthXMLTestSupport.read(xml: xml, chunkSize: chunkSize).elements.first)
        #expect(record.sourceName == "Simon’s & iPhone")
        #expect(record.device == "<<HKDevice: 0x1>, name:Watch>")
        #expect(record.unit == "mg")
        #expect(record.sourceVersion == nil && record.creationDate == nil && record.endDate == nil)
    }

    @Test func veryLongLineIsQuotedFromTheTagAndCut() throws {
        let filler = String(repeating: "<Me/>", count: 4000)  // 20,000 bytes on one line
        let xml = "<HealthData>\(filler)\(Self.record)</HealthData>\n"
        let elements = try HealthXMLTestSupport.read(xml: xml, chunkSize: 4096).elements
        #expect(elements.count == 4001)
        #expect(elements.first?.raw.utf8.count == HealthXMLLineWindow.maxRawBytes)
        #expect(elements.first?.raw.hasPrefix("<HealthData><Me/>") == true)
        let record = try #require(elements.last)
        #expect(record.raw.hasPrefix(Self.record))
        #expect(record.raw.hasSuffix("</HealthData>"))
    }

    @Test func errorThrownByTheCallbackStopsReading() throws {
        struct Stop: Error {}
        let xml = "<HealthData>\n <Me/>\n <ExportDate/>\n <Record/>\n</HealthData>\n"
        for chunkSize in Self.chunkSizes {
            var seen: [String] = []
            #expect(throws: Stop.self) {
                _ = try AppleHealthXMLReader.read(HealthXMLChunkedStream(Array(xml.utf8), chunkSize: chunkSize)) {
                    seen.append($0.name)
                    if $0.name == "ExportDate" { throw Stop() }
                }
            }
            #expect(seen == ["Me", "ExportDate"])
        }
    }

    @Test func byteOffsetsPointAtTheStartTags() throws {
        let xml = "<HealthData>\n <Me/>\n \(Self.record)\n</HealthData>\n"
        let elements = try HealthXMLTestSupport.read(xml: xml, chunkSize: 3).elements
        let bytes = Array(xml.utf8)
        for element in elements {
            #expect(bytes[element.byteOffset] == UInt8(ascii: "<"))
            #expect(
                String(decoding: bytes[(element.byteOffset + 1)...].prefix(element.name.utf8.count), as: UTF8.self)
                    == element.name)
        }
    }
}
