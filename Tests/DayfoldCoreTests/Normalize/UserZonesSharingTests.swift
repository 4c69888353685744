import Dispatch
import Testing

@testable import DayfoldCore

/// The facts' sides (and ingest's health side) share one zone resolver:
/// lookups from many threads at once answer as one thread's would, and each
/// fallback any of them used is recorded once, in the one record the
/// manifest reads.
@Suite struct UserZonesSharingTests {
    func resolver() throws -> UserZones {
        var zones = ZoneCatalog()
        // `as ZoneID?`: #require cannot take a mutating call apart.
        let berlin = try #require(zones.id(named: "Europe/Berlin") as ZoneID?)
        return UserZones(zones: zones, history: [:], latestInstanceZone: ["u-latest": berlin], defaultZone: nil)
    }

    @Test func lookupsFromManyThreadsRecordEachFallbackOnce() throws {
        let shared = try resolver()
        // 2026-03-01T23:30:00+05:30 is 2026-03-01 as written (no zone configured for u-offset).
        let instant = ParsedInstant(instant: Instant(seconds: 1_772_388_000), offsetSeconds: 19_800)
        let users = (0..<40).map { "u-\($0)" } + ["u-latest", "u-offset"]
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for user in users {
                #expect(shared.localDate(user, instant) == LocalDate("2026-03-01"))
                _ = shared.schedule(user).zone(on: LocalDate(days: 20_000))
            }
        }
        let alone = try resolver()
        for user in users {
            _ = alone.localDate(user, instant)
            _ = alone.schedule(user).zone(on: LocalDate(days: 20_000))
        }
        #expect(shared.warnings == alone.warnings)
        // Per user without a zone: the written offset (instants) and UTC (dates).
        #expect(shared.warnings.count == 40 * 2 + 1 + 2)
        #expect(
            shared.warningsByUser["u-latest"] == [
                "timezone fallback for user u-latest: latest_task_instance Europe/Berlin"
            ])
    }

    /// A copy of a drop shares its resolver: what the copy's lookups fall
    /// back to is in the original's warnings.
    @Test func aCopiedDropRecordsIntoTheSameResolver() throws {
        var drop = IngestedDrop(zones: ZoneCatalog())
        drop.userZones = try resolver()
        let copy = drop
        _ = copy.userZones.resolver("u-offset")
        #expect(drop.userZones.warnings == ["timezone fallback for user u-offset: instant_offset (as written)"])
    }
}
