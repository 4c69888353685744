import Testing

@testable import DayfoldCore

/// A per-user resolver (used where millions of rows ask about a few thousand
/// users) answers exactly as the String-keyed lookup does, for each of the
/// §1.2 sources, and records the same fallback warnings.
@Suite struct UserZoneResolverTests {
    static let utc = ParsedInstant(instant: Instant(seconds: 1_772_409_600), offsetSeconds: 0)  // 2026-03-02T00:00Z

    func zones() throws -> (UserZones, ZoneID, ZoneID) {
        var catalog = ZoneCatalog()
        // `as ZoneID?`: #require cannot take a mutating call apart.
        let berlin = try #require(catalog.id(named: "Europe/Berlin") as ZoneID?)
        let tokyo = try #require(catalog.id(named: "Asia/Tokyo") as ZoneID?)
        // u-moved is in Tokyo until 2026-03-01T12:00Z, then in Berlin.
        let history = [
            "u-moved": [
                TimezoneRow(zone: tokyo, effectiveFrom: Instant(seconds: 0), order: 0),
                TimezoneRow(zone: berlin, effectiveFrom: Instant(seconds: 1_772_366_400), order: 1),
            ]
        ]
        let users = UserZones(
            zones: catalog, history: history, latestInstanceZone: ["u-latest": tokyo], defaultZone: nil)
        return (users, berlin, tokyo)
    }

    @Test func eachSourceGivesTheSameDayAsTheKeyedLookup() throws {
        let instants = [
            // 2026-03-01T10:00Z: Tokyo (history) 19:00 on the 1st; written +05:30.
            ParsedInstant(instant: Instant(seconds: 1_772_359_200), offsetSeconds: 19_800),
            // 2026-03-01T23:30Z: Berlin (history) 00:30 on the 2nd; Tokyo 08:30 on the 2nd; written -08:00, the 1st.
            ParsedInstant(instant: Instant(seconds: 1_772_407_800), offsetSeconds: -28_800),
        ]
        let expected: [String: [String]] = [
            "u-moved": ["2026-03-01", "2026-03-02"],
            "u-latest": ["2026-03-01", "2026-03-02"],
            "u-offset": ["2026-03-01", "2026-03-01"],
        ]
        for (user, days) in expected {
            let (keyed, _, _) = try zones()
            let (fast, _, _) = try zones()
            let resolver = fast.resolver(user)
            for (instant, day) in zip(instants, days) {
                #expect(keyed.localDate(user, instant) == LocalDate(day), "\(user)")
                #expect(resolver.localDate(instant) == LocalDate(day), "\(user)")
            }
            #expect(fast.warnings == keyed.warnings, "\(user)")
        }
    }

    @Test func theFallbackWarningIsRecordedOnceAsALookupWould() throws {
        let (users, _, _) = try zones()
        _ = users.resolver("u-latest").localDate(Self.utc)
        _ = users.resolver("u-offset").localDate(Self.utc)
        _ = users.resolver("u-moved").localDate(Self.utc)
        #expect(
            users.warnings == [
                "timezone fallback for user u-latest: latest_task_instance Asia/Tokyo",
                "timezone fallback for user u-offset: instant_offset (as written)",
            ])
    }
}
