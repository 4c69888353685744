import Testing

@testable import DayfoldCore
@testable import DayfoldGenerate

/// Field formatting of the generator's byte buffer: every instant style the
/// spec accepts (and the one it rejects), fixed-point numbers, ids, dates.
@Suite struct CSVRowBufferTests {
    func text(_ fill: (inout CSVRowBuffer) -> Void) -> String {
        var buffer = CSVRowBuffer(capacity: 64)
        fill(&buffer)
        return String(decoding: buffer.bytes, as: UTF8.self)
    }

    // 2026-03-08 is day 20520; 07:15 local in UTC−08:00.
    static let instant = SyntheticInstant(day: 20_520, minuteOfDay: 435, offsetSeconds: -8 * 3600)

    @Test(arguments: [
        (InstantStyle.isoOffset, "2026-03-08T07:15:00-08:00"),
        (.isoOffsetMillis, "2026-03-08T07:15:00.250-08:00"),
        (.isoUTC, "2026-03-08T15:15:00Z"),
        (.postgresUTC, "2026-03-08 15:15:00+00"),
        (.appleHealth, "2026-03-08 07:15:00 -0800"),
        (.missingOffset, "2026-03-08T07:15:00"),
    ])
    func writesInstantStyles(style: InstantStyle, expected: String) {
        #expect(text { $0.instant(Self.instant, style) } == expected)
    }

    @Test func dayNumbersRoundTrip() {
        #expect(CivilCalendar.parseDay("2026-03-08") == 20_520)
        #expect(CivilCalendar.parseDay("1970-01-01") == 0)
        #expect(CivilCalendar.parseDay("2024-02-29") != nil)
        #expect(CivilCalendar.parseDay("2026-02-29") == nil)
        #expect(text { $0.date(20_520) } == "2026-03-08")
        #expect(CivilCalendar.weekday(ofDay: 20_520) == 0)  // a Sunday
    }

    @Test(arguments: [
        (8135, 2, "81.35"), (8130, 2, "81.3"), (8100, 2, "81"), (5, 1, "0.5"), (-25, 1, "-2.5"), (7, 2, "0.07"),
    ])
    func writesFixedPointInShortestForm(value: Int, decimals: Int, expected: String) {
        #expect(text { $0.fixed(value, decimals: decimals) } == expected)
    }

    @Test func writesVersion4UUIDs() {
        let id = SyntheticID(.instance, seed: 1, 2, 3, 4)
        let uuid = text { $0.uuid(id) }
        #expect(uuid.count == 36)
        #expect(Array(uuid)[14] == "4")
        #expect("89ab".contains(Array(uuid)[19]))
        #expect(SyntheticID(.instance, seed: 1, 2, 3, 4) == id)
        #expect(SyntheticID(.event, seed: 1, 2, 3, 4) != id)
    }

    @Test func seededGeneratorIsStable() {
        var first = SplitMix64(seed: 42)
        var second = SplitMix64(seed: 42)
        let a = (0..<100).map { _ in first.next() }
        #expect(a == (0..<100).map { _ in second.next() })
        // SplitMix64's published first output for seed 0.
        var zero = SplitMix64(seed: 0)
        #expect(zero.next() == 0xE220_A839_7B1D_CDAF)
        var bounded = SplitMix64(seed: 3)
        #expect((0..<1000).allSatisfy { _ in (0..<7).contains(bounded.below(7)) })
    }
}
