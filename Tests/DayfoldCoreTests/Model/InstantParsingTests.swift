import Testing

@testable import DayfoldCore

@Suite struct InstantParsingTests {
    static func parse(_ text: String) -> ParsedInstant? { parseAsOf(text) }

    @Test(arguments: [
        ("2026-03-08T07:15:00Z", "2026-03-08T07:15:00Z", Int32(0)),
        ("2026-03-08T07:15:00.250-08:00", "2026-03-08T15:15:00.25Z", Int32(-28_800)),
        ("2026-03-08 07:15:00+00", "2026-03-08T07:15:00Z", Int32(0)),
        ("2026-03-08 07:15:00 -0800", "2026-03-08T15:15:00Z", Int32(-28_800)),
        ("2026-03-08T07:15Z", "2026-03-08T07:15:00Z", Int32(0)),
        ("2026-03-08T07:15:00,5+05:30", "2026-03-08T01:45:00.5Z", Int32(19_800)),
        ("2026-03-08T07:15:00.1234567Z", "2026-03-08T07:15:00.123456Z", Int32(0)),
        ("20150616071916-0700", "2015-06-16T14:19:16Z", Int32(-25_200)),
    ])
    func everyOffsetFormIsRead(text: String, utc: String, offset: Int32) throws {
        let parsed = try #require(Self.parse(text))
        #expect(parsed.instant.description == utc)
        #expect(parsed.offsetSeconds == offset)
    }

    @Test(arguments: [
        "2026-03-08T07:15:00", "2026-03-08 07:15:00", "2026-03-08", "2026-02-30T07:15:00Z", "2026-03-08T25:00:00Z",
        "2026-03-08T07:15:00+0", "yesterday", "", "2026-03-08T07:15:00 Z ",
    ])
    func instantsWithoutOffsetOrMalformedAreRefused(text: String) {
        #expect(Self.parse(text) == nil)
    }

    @Test func localDatesRoundTrip() throws {
        let date = try #require(LocalDate("2024-02-29"))
        #expect(date.description == "2024-02-29")
        #expect(date.adding(days: 1).description == "2024-03-01")
        #expect(LocalDate("2023-02-29") == nil)
        #expect(LocalDate(days: 0).description == "1970-01-01")
    }
}

@Suite struct ByteOrderTests {
    @Test(arguments: [
        ("a", "b", true), ("b", "a", false), ("a", "ab", true), ("", "a", true), ("a", "a", false),
        ("Z", "a", true), ("é", "z", false), ("r1", "r10", true),
    ])
    func stringsSortByTheirUTF8Bytes(left: String, right: String, less: Bool) {
        #expect(bytesLess(left, right) == less)
        #expect(bytesLess(left, right) == left.utf8.lexicographicallyPrecedes(right.utf8))
    }
}
