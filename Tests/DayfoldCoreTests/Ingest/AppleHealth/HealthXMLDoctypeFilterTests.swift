import Testing

@testable import DayfoldCore

@Suite struct HealthXMLDoctypeFilterTests {
    private func filtered(_ text: String, chunkSize: Int) -> [UInt8] {
        var filter = HealthXMLDoctypeFilter()
        var output: [UInt8] = []
        let bytes = Array(text.utf8)
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + chunkSize)
            output += filter.filter(Array(bytes[start..<end]))
            start = end
        }
        return output + filter.finish()
    }

    @Test(arguments: [1, 2, 3, 64])
    func doctypeIsBlankedKeepingLengthAndLineBreaks(chunkSize: Int) {
        let text = "<?xml version=\"1.0\"?>\r\n<!DOCTYPE HealthData [\n<!ATTLIST Record\n]>\n<HealthData/>"
        let output = filtered(text, chunkSize: chunkSize)
        let expected =
            "<?xml version=\"1.0\"?>\r\n" + String(repeating: " ", count: 22) + "\n"
            + String(repeating: " ", count: 16) + "\n  \n<HealthData/>"
        #expect(String(decoding: output, as: UTF8.self) == expected)
    }

    @Test(
        arguments: [
            ("<HealthData/>", HealthXMLDoctypeFilter.ScanResult.noDoctype),
            ("<?xml version=\"1.0\"?><!-- c --><Health", .noDoctype),
            ("<!DOCTYPE a>", .doctype(0..<12)),
            ("<!DOCTYPE a [ <!-- ]> --> ] >", .doctype(0..<29)),
            ("<!DOCTYPE a [ <!ATTLIST x", .needMore),
            ("<!DOCTYP", .needMore),
            ("<!-", .needMore),
            ("<!ELEMENT a ANY>", .noDoctype),
        ] as [(String, HealthXMLDoctypeFilter.ScanResult)])
    func scanFindsTheDeclaration(text: String, expected: HealthXMLDoctypeFilter.ScanResult) {
        #expect(HealthXMLDoctypeFilter.scan(Array(text.utf8)) == expected)
    }

    @Test func unterminatedDoctypeIsPassedOnUnchangedAtTheEnd() {
        let text = "<!DOCTYPE HealthData [\n<!ATTLIST Record\n<HealthData/>"
        #expect(filtered(text, chunkSize: 4) == Array(text.utf8))
    }

    @Test func bytesAfterThePrologPassThroughUntouched() {
        var filter = HealthXMLDoctypeFilter()
        #expect(filter.filter(Array("<HealthData>".utf8)) == Array("<HealthData>".utf8))
        #expect(filter.filter(Array("<!DOCTYPE x>".utf8)) == Array("<!DOCTYPE x>".utf8))
        #expect(filter.finish().isEmpty)
    }
}
