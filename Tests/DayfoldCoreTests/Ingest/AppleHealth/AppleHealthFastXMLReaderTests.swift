import Foundation
import Testing

@testable import DayfoldCore

/// The fast reader against expat (issue 24): on the real fixtures, on
/// generated exports and on a seeded corpus of mutations, whenever the fast
/// reader accepts a file, expat accepts it too with the same elements
/// (names, lines, byte offsets, decoded values, raw lines); whenever expat
/// refuses a file, the fast reader hands it over. Together with the
/// ingestor's fallback (the file read again by expat), both give the same
/// rows, rejects and failed imports with the same line.
@Suite struct AppleHealthFastXMLReaderTests {
    enum Verdict: Equatable {
        case fastRead
        case handedToExpat
    }

    /// Reads `bytes` with both readers (`chunkSize` for each) and checks they agree.
    @discardableResult
    static func compare(
        _ bytes: [UInt8], chunkSize: Int, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> Verdict {
        var fastElements: [HealthXMLElement] = []
        let outcome = try AppleHealthFastXMLReader.read(HealthXMLChunkedStream(bytes, chunkSize: chunkSize)) {
            fastElements.append($0.element())
        }
        var expatElements: [HealthXMLElement] = []
        var expatResult: HealthXMLReadResult?
        do {
            expatResult = try AppleHealthXMLReader.read(HealthXMLChunkedStream(bytes, chunkSize: chunkSize)) {
                expatElements.append($0)
            }
        } catch is HealthXMLError {
            expatResult = nil
        }
        guard outcome == .read else { return .handedToExpat }
        #expect(expatResult == .read, "the fast reader accepted what expat refuses", sourceLocation: sourceLocation)
        #expect(fastElements.count == expatElements.count, sourceLocation: sourceLocation)
        for (fast, expat) in zip(fastElements, expatElements) where fast != expat {
            Issue.record("line \(expat.line): \(differences(fast, expat))", sourceLocation: sourceLocation)
            break
        }
        return .fastRead
    }

    /// The fields two elements differ in, values cut short.
    static func differences(_ fast: HealthXMLElement, _ expat: HealthXMLElement) -> String {
        let fields: [(String, (HealthXMLElement) -> String?)] = [
            ("line", { "\($0.line)" }), ("byteOffset", { "\($0.byteOffset)" }), ("name", \.name), ("type", \.type),
            ("unit", \.unit), ("value", \.value), ("startDate", \.startDate), ("endDate", \.endDate),
            ("sourceName", \.sourceName), ("sourceVersion", \.sourceVersion), ("device", \.device),
            ("creationDate", \.creationDate), ("raw", \.raw),
        ]
        return fields.compactMap { name, get in
            let (a, b) = (get(fast), get(expat))
            guard a != b else { return nil }
            func cut(_ text: String?) -> String {
                text.map { "\(text?.count ?? 0):" + String($0.prefix(60)).debugDescription } ?? "nil"
            }
            return "\(name) fast \(cut(a)) expat \(cut(b))"
        }.joined(separator: "; ")
    }

    static let fixtures = ["ashtom-hkimport-export.xml", "dogsheep-healthkit-to-sqlite-export.xml"]

    @Test(
        .enabled(if: HealthXMLTestSupport.sharedIsPresent, "needs <repo>/../shared"), arguments: fixtures,
        [4093, 1 << 20])
    func everyWellFormedFixtureIsReadFastWithExpatsElements(_ file: String, chunkSize: Int) throws {
        let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: HealthXMLTestSupport.fixture(file))))
        #expect(try Self.compare(bytes, chunkSize: chunkSize) == .fastRead)
        // Chunks of a few bytes cut every tag somewhere (only on the small fixture: expat is slow in them).
        if bytes.count < 16_384 { #expect(try Self.compare(bytes, chunkSize: 7) == .fastRead) }
    }

    @Test(.enabled(if: HealthXMLTestSupport.sharedIsPresent, "needs <repo>/../shared"))
    func theConformanceExportWithAMalformedDTDIsReadFast() throws {
        let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: HealthXMLTestSupport.conformanceExport)))
        for chunkSize in [5, 1 << 20] { #expect(try Self.compare(bytes, chunkSize: chunkSize) == .fastRead) }
    }

    @Test(.enabled(if: HealthXMLTestSupport.sharedIsPresent, "needs <repo>/../shared"))
    func aFixtureWithACommentInItsBodyIsHandedToExpat() throws {
        let path = HealthXMLTestSupport.fixture("rinoshiyo-apple-health-mcp-server-sample_export.xml")
        let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(try Self.compare(bytes, chunkSize: 1 << 20) == .handedToExpat)
        // Without the comment, the rest is in the fast subset.
        let text = String(decoding: bytes, as: UTF8.self)
        guard let open = text.range(of: " <!--\n   Apple"),
            let close = text.range(of: "-->\n", range: open.upperBound..<text.endIndex)
        else { throw HealthXMLError(line: 0, detail: "the fixture changed") }
        let without = text.replacingCharacters(in: open.lowerBound..<close.upperBound, with: "")
        #expect(try Self.compare(Array(without.utf8), chunkSize: 1 << 20) == .fastRead)
    }

    @Test(.enabled(if: HealthXMLTestSupport.sharedIsPresent, "needs <repo>/../shared"))
    func theMalformedFixtureIsHandedToExpat() throws {
        let path = HealthXMLTestSupport.fixture("ashtom-hkimport-exportSmall.xml")
        let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(try Self.compare(bytes, chunkSize: 1 << 20) == .handedToExpat)
    }

    @Test func aClinicalDocumentIsHandedToExpat() throws {
        let xml = #"<?xml version="1.0"?><ClinicalDocument><x/></ClinicalDocument>"#
        #expect(try Self.compare(Array(xml.utf8), chunkSize: 3) == .handedToExpat)
    }

    @Test(arguments: [
        #"<?xml version="1.0" encoding="ISO-8859-1"?><HealthData><Record type="a"/></HealthData>"#,
        #"<HealthData><!-- a comment --><Record type="a"/></HealthData>"#,
        #"<HealthData><Record type="a"><![CDATA[x]]></Record></HealthData>"#,
        #"<HealthData><?pi x?><Record type="a"/></HealthData>"#,
        #"<HealthData><Record type="&nbsp;"/></HealthData>"#,
        #"<HealthData>text<Record type="a"/></HealthData>"#,
    ])
    func constructsOutsideTheSubsetAreHandedToExpat(_ xml: String) throws {
        #expect(try Self.compare(Array(xml.utf8), chunkSize: 1 << 20) == .handedToExpat)
    }

    @Test func quotesEntitiesCharacterReferencesAndLineBreaksDecodeAsExpatDoes() throws {
        let xml =
            "\u{FEFF}<?xml version=\"1.0\" encoding=\"utf-8\"?>\r\n<HealthData>\r\n <Record type='a&amp;b&lt;&gt;&quot;&apos;'"
            + " value=\"1&#46;5\" unit=\"x&#x263A;&#128512;\" sourceName=\"a\r\nb\tc\rd\ne\" device='\"q\"'/>\r"
            + " <Record\r\n type = \"b\"\n/>\n</HealthData>\r\n"
        #expect(try Self.compare(Array(xml.utf8), chunkSize: 1 << 20) == .fastRead)
        #expect(try Self.compare(Array(xml.utf8), chunkSize: 1) == .fastRead)
    }

    /// Characters at the edges of what XML allows, in a value: DEL, C1
    /// controls, noncharacters U+FDD0 and U+10FFFF's neighbours, U+FFFD, a BOM
    /// in a value; both readers must agree whichever way each goes.
    @Test(
        arguments: [
            [0x7F], [0xC2, 0x80], [0xC2, 0x9F], [0xEF, 0xB7, 0x90], [0xEF, 0xBF, 0xBD], [0xEF, 0xBF, 0xBE],
            [0xF4, 0x8F, 0xBF, 0xBF], [0xF4, 0x90, 0x80, 0x80], [0xEF, 0xBB, 0xBF], [0xED, 0x9F, 0xBF],
            [0xE0, 0x9F, 0xBF],
        ] as [[UInt8]])
    func edgeCharactersInAValueAreJudgedAsExpatJudgesThem(_ character: [UInt8]) throws {
        let bytes =
            Array(#"<HealthData><Record type="a"#.utf8) + character + Array(#"b" value="1"/></HealthData>"#.utf8)
        try Self.compare(bytes, chunkSize: 1 << 20)
        try Self.compare(bytes, chunkSize: 1)
    }

    /// Exports made of `records` copies of the fixtures' kinds of elements,
    /// each line shifted, with correlations holding nested Records.
    static func generatedExport(records: Int, seed: UInt64) -> [UInt8] {
        var random = SeededRandom(seed: seed)
        var text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE HealthData [
            <!ATTLIST Record
              type CDATA #REQUIRED
            ]>
            <HealthData locale="en_US">
             <ExportDate value="2026-03-29 11:30:00 +0200"/>

            """
        let types = [
            "HKQuantityTypeIdentifierStepCount", "HKQuantityTypeIdentifierHeartRate",
            "HKCategoryTypeIdentifierSleepAnalysis",
        ]
        for index in 0..<records {
            let type = types[Int(random.next() % UInt64(types.count))]
            let value = random.next() % 1000
            let day = 1 + index % 28
            let record =
                #"<Record type="\#(type)" sourceName="Tom’s Apple&#160;Watch" sourceVersion="10.2" "#
                + #"device="&lt;&lt;HKDevice: 0x\#(String(random.next() % 65536, radix: 16))&gt;, name:Apple Watch&gt;" "#
                + #"unit="count" creationDate="2026-02-\#(day) 06:10:00 +0100" "#
                + #"startDate="2026-02-\#(day) 06:00:00 +0100" endDate="2026-02-\#(day) 06:10:00 +0100" value="\#(value)""#
            switch random.next() % 8 {
            case 0:
                text +=
                    " \(record)>\n  <MetadataEntry key=\"HKMetadataKeyHeartRateMotionContext\" value=\"0\"/>\n </Record>\n"
            case 1:
                text += " <Correlation type=\"HKCorrelationTypeIdentifierFood\">\n  \(record)/>\n </Correlation>\n"
            default:
                text += " \(record)/>\n"
            }
        }
        text += " <ActivitySummary dateComponents=\"2026-02-01\" activeEnergyBurned=\"590.252\"/>\n</HealthData>\n"
        return Array(text.utf8)
    }

    @Test(arguments: [1, 2, 3])
    func generatedExportsAreReadFastWithExpatsElements(seed: UInt64) throws {
        let bytes = Self.generatedExport(records: 3000, seed: seed)
        #expect(try Self.compare(bytes, chunkSize: 1 << 16) == .fastRead)
    }

    /// The batches decoded on the scanning thread (what the ingestor decides
    /// on) carry the values and quotes expat reports, empty values as NULL.
    @Test func batchesCarryExpatsValues() throws {
        var inputs = [Self.generatedExport(records: 5000, seed: 4)]
        if HealthXMLTestSupport.sharedIsPresent {
            inputs.append(
                try Array(
                    Data(contentsOf: URL(fileURLWithPath: HealthXMLTestSupport.fixture("ashtom-hkimport-export.xml")))))
        }
        for bytes in inputs {
            var fast: [[String?]] = []
            let outcome = try AppleHealthFastXMLReader.readInBatches(
                HealthXMLChunkedStream(bytes, chunkSize: 1 << 16), user: Array("u-1".utf8), keepRaw: true
            ) { batch in
                #expect(String(decoding: batch.bytes[batch.user], as: UTF8.self) == "u-1")
                for child in batch.children {
                    let text = { (range: Range<Int>?) in range.map { String(decoding: batch.bytes[$0], as: UTF8.self) }
                    }
                    fast.append(
                        child.isRecord
                            ? [
                                "\(child.line)", text(child.type), text(child.value), text(child.unit),
                                text(child.start),
                                text(child.end), text(child.sourceName), batch.raw(child),
                            ] : ["\(child.line)"])
                }
            }
            #expect(outcome == .read)
            var expat: [[String?]] = []
            _ = try AppleHealthXMLReader.read(HealthXMLChunkedStream(bytes, chunkSize: 1 << 20)) { element in
                let null = { (text: String?) in text?.isEmpty == true ? nil : text }
                expat.append(
                    element.name == "Record"
                        ? [
                            "\(element.line)", null(element.type), null(element.value), null(element.unit),
                            null(element.startDate), null(element.endDate), null(element.sourceName), element.raw,
                        ] : ["\(element.line)"])
            }
            #expect(fast.count == expat.count)
            #expect(fast == expat)
        }
    }

    /// 1,500 seeded mutations of small exports (truncations, stray `<` and `&`,
    /// nested and unclosed Records, `'` quotes and entities, C0 bytes, CRLF, a
    /// BOM, very long attributes, bad UTF-8, comments, duplicate attributes, …).
    @Test func mutatedExportsNeverPartWays() throws {
        var bases: [[UInt8]] = [
            Self.generatedExport(records: 12, seed: 9), Self.generatedExport(records: 5, seed: 10),
        ]
        if HealthXMLTestSupport.sharedIsPresent {
            for file in [
                "dogsheep-healthkit-to-sqlite-export.xml", "rinoshiyo-apple-health-mcp-server-sample_export.xml",
            ] {
                bases.append(try Array(Data(contentsOf: URL(fileURLWithPath: HealthXMLTestSupport.fixture(file)))))
            }
        }
        var random = SeededRandom(seed: 24)
        var verdicts: [Verdict: Int] = [:]
        for index in 0..<1500 {
            var bytes = bases[index % bases.count]
            for _ in 0...(random.next() % 3) { HealthXMLMutation.apply(&bytes, &random) }
            // Tiny chunks only for small files: both windows are quadratic in them.
            let chunkSize =
                bytes.count < 16_384 ? [1 << 20, 7, 64, 4096][random.below(4)] : [1 << 20, 4096][random.below(2)]
            verdicts[try Self.compare(bytes, chunkSize: chunkSize), default: 0] += 1
        }
        // Both outcomes are exercised: many mutations stay well-formed.
        #expect(verdicts[.fastRead, default: 0] > 200)
        #expect(verdicts[.handedToExpat, default: 0] > 200)
    }
}

/// The mutations of the corpus, each at a seeded place.
enum HealthXMLMutation {
    static func apply(_ bytes: inout [UInt8], _ random: inout SeededRandom) {
        let at = random.below(bytes.count + 1)
        func insert(_ text: String) { bytes.insert(contentsOf: Array(text.utf8), at: at) }
        /// A place inside an attribute value: just after some `="`.
        func valuePlace() -> Int? {
            let places = bytes.indices.dropLast().filter { bytes[$0] == UInt8(ascii: "=") && bytes[$0 + 1] == 0x22 }
            return places.isEmpty ? nil : places[random.below(places.count)] + 2
        }
        switch random.below(22) {
        case 0: bytes.removeLast(random.below(bytes.count + 1))  // truncation
        case 1: insert("<")
        case 2: insert("&")
        case 3: insert(" <Record type=\"HKQuantityTypeIdentifierStepCount\" value=\"1\" unit=\"count\"/>")
        case 4: insert("<Record type=\"x\">")  // unclosed
        case 5:
            if let place = valuePlace() {
                let entities = [
                    "&amp;", "&lt;", "&gt;", "&quot;", "&apos;", "&#65;", "&#x263A;", "&#0;", "&#xD800;", "&foo;",
                    "&#x110000;", "&#10;", "&#13;", "&#9;",
                ]
                bytes.insert(contentsOf: Array(entities[random.below(entities.count)].utf8), at: place)
            }
        case 6:
            // Single quotes around one value.
            if let place = valuePlace(), let close = bytes[place...].firstIndex(of: 0x22) {
                bytes[place - 1] = UInt8(ascii: "'")
                bytes[close] = UInt8(ascii: "'")
            }
        case 7: bytes.insert([0x0B, 0x01, 0x1F, 0x00, 0x7F][random.below(5)], at: at)
        case 8:
            // CRLF everywhere, or one lone CR.
            if random.below(2) == 0 {
                var out: [UInt8] = []
                for byte in bytes {
                    if byte == 0x0A { out.append(0x0D) }
                    out.append(byte)
                }
                bytes = out
            } else {
                bytes.insert(0x0D, at: at)
            }
        case 9: bytes.insert(contentsOf: [0xEF, 0xBB, 0xBF], at: random.below(2) == 0 ? 0 : at)
        case 10:
            if let place = valuePlace() {
                let length = [100, 9000, 20_000, 70_000][random.below(4)]
                bytes.insert(contentsOf: (0..<length).map { UInt8(ascii: "a") + UInt8($0 % 26) }, at: place)
            }
        case 11:
            let bad: [[UInt8]] = [
                [0xFF], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xEF, 0xBF, 0xBE], [0xE2, 0x82], [0xC3, 0xA9],
                [0xF0, 0x9F, 0x98, 0x80],
            ]
            bytes.insert(contentsOf: bad[random.below(bad.count)], at: valuePlace() ?? at)
        case 12: insert(["<!-- c -->", "<?pi x?>", "<![CDATA[x]]>", "text", "]]>"][random.below(5)])
        case 13:
            if let place = valuePlace() { bytes.insert(contentsOf: Array("x\" type=\"dup".utf8), at: place) }
        case 14: if !bytes.isEmpty && at < bytes.count { bytes.remove(at: at) }
        case 15: insert("</Record>")
        case 16:
            // A line break or tab inside a value, or spaces around `=`.
            if let place = valuePlace() {
                bytes.insert(contentsOf: [[0x0A], [0x09], [0x0D, 0x0A], [0x20, 0x20]][random.below(4)], at: place)
            }
        case 17:
            if let place = valuePlace() { bytes.replaceSubrange((place - 2)..<(place - 1), with: Array(" = ".utf8)) }
        case 18: insert(" <Correlation type=\"c\"><Record type=\"HKQuantityTypeIdentifierStepCount\"/></Correlation>")
        case 19: insert(" ")
        case 20:
            // Two attributes without white space between them.
            if let place = valuePlace(), let close = bytes[place...].firstIndex(of: 0x22) {
                bytes.insert(contentsOf: Array("b=\"1\"".utf8), at: close + 1)
            }
        default:
            insert(
                ["\n", "\t", "<HealthData>", "</HealthData>", "<a:b x:y='1'/>", "<Record/>", "<Record type=\"é\"/>"][
                    random.below(7)])
        }
    }
}
