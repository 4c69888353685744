import Testing

@testable import DayfoldCore

/// The client side of compute resolves zones in a copy of the resolver: the
/// copy answers as the original would, keeps its new zones to itself, and
/// its fallback warnings come back to the original.
@Suite struct UserZonesCopyTests {
    func resolver() throws -> UserZones {
        let zones = ZoneCatalog()
        let berlin = try #require(zones.id(named: "Europe/Berlin"))
        return UserZones(zones: zones, history: [:], latestInstanceZone: ["u-latest": berlin], defaultZone: nil)
    }

    @Test func aCopyAnswersAsTheOriginalAndItsWarningsAreAbsorbed() throws {
        let original = try resolver()
        let copy = original.copy()
        // 2026-03-01T23:30:00+05:30 is 2026-03-01 as written (no zone configured for u-offset).
        let instant = ParsedInstant(instant: Instant(seconds: 1_772_388_000), offsetSeconds: 19_800)
        #expect(copy.localDate("u-offset", instant) == LocalDate("2026-03-01"))
        #expect(copy.localDate("u-latest", instant) == LocalDate("2026-03-01"))
        #expect(original.warnings.isEmpty)
        #expect(copy.warnings.count == 2)
        original.absorbWarnings(of: copy)
        #expect(original.warnings == copy.warnings)
        // Absorbing again, or the original warning itself, lists each fallback once.
        _ = original.localDate("u-latest", instant)
        original.absorbWarnings(of: copy)
        #expect(original.warnings.count == 2)
    }

    @Test func zonesTheCopyAddsStayInItsOwnCatalog() throws {
        let original = try resolver()
        let copy = original.copy()
        let fixed = copy.zones.id(fixedOffset: 19_800)
        #expect(copy.zones.name(of: fixed) == "UTC+05:30")
        // The original never saw the copy's zone: its own next zone takes the same id.
        let mine = original.zones.id(fixedOffset: -3_600)
        #expect(mine == fixed)
        #expect(original.zones.name(of: mine) == "UTC-01:00")
        #expect(copy.zones.name(of: fixed) == "UTC+05:30")
    }
}
