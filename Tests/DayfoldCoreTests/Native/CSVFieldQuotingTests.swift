import Testing

@testable import DayfoldCore

/// RFC 4180 quoting from bytes in place: the word-at-a-time test for the
/// bytes that need quotes, and the quoted text itself.
@Suite struct CSVFieldQuotingTests {
    /// The word-at-a-time test for quoting agrees with a byte-by-byte one
    /// for each special byte at every position of fields of 0–24 bytes, and
    /// for the bytes next to them in value (no false alarm from + - / \v).
    @Test func quotingIsNeededExactlyForCommaQuoteAndLineBreaks() {
        let special: [UInt8] = [0x2C, 0x22, 0x0A, 0x0D]
        let harmless: [UInt8] = [0x2B, 0x2D, 0x21, 0x23, 0x09, 0x0B, 0x0C, 0x0E, 0x61, 0x80, 0xFF, 0x00]
        for length in 0...24 {
            let plain = [UInt8](repeating: 0x61, count: length)
            let plainNeedsQuotes = CSVFieldQuoting.needsQuotes(plain.span)
            #expect(!plainNeedsQuotes, "length \(length)")
            for position in 0..<length {
                for byte in special + harmless {
                    var field = plain
                    field[position] = byte
                    let needsQuotes = CSVFieldQuoting.needsQuotes(field.span)
                    #expect(
                        needsQuotes == special.contains(byte),
                        "length \(length) position \(position) byte \(byte)")
                }
            }
        }
    }

    @Test(arguments: [
        ("plain", "plain"), ("", ""), ("a,b", "\"a,b\""), ("say \"hi\"", "\"say \"\"hi\"\"\""),
        ("two\nlines", "\"two\nlines\""), ("cr\r", "\"cr\r\""), ("\"", "\"\"\"\""),
    ])
    func fieldsAreQuotedWithQuotesDoubledOnlyWhenNeeded(field: String, written: String) {
        var output: [UInt8] = Array("x".utf8)
        CSVFieldQuoting.append(Array(field.utf8).span, into: &output)
        #expect(String(decoding: output, as: UTF8.self) == "x" + written)
    }
}
