import Foundation
import Testing

@testable import DayfoldCore

/// Deadlines are "start of local_date + 2" in the task's zone: a DST day is
/// 23 or 25 hours, so the grace window is 47 or 49 hours, not 48.
@Suite struct ZoneCatalogTests {
    func start(_ zone: String, _ date: String) throws -> String {
        var zones = ZoneCatalog()
        // `as ZoneID?`: #require cannot take a mutating call apart.
        let id = try #require(zones.id(named: zone) as ZoneID?)
        return zones.startOfDay(id, try #require(LocalDate(date))).description
    }

    @Test func berlinSpringForwardDayIs23Hours() throws {
        #expect(try start("Europe/Berlin", "2026-03-29") == "2026-03-28T23:00:00Z")
        #expect(try start("Europe/Berlin", "2026-03-30") == "2026-03-29T22:00:00Z")
        // Deadline of a task on 2026-03-28: start of 03-30 → 47 h after its day began.
        #expect(try start("Europe/Berlin", "2026-03-28") == "2026-03-27T23:00:00Z")
    }

    @Test func losAngelesDaysAroundBothChanges() throws {
        #expect(try start("America/Los_Angeles", "2026-03-08") == "2026-03-08T08:00:00Z")
        #expect(try start("America/Los_Angeles", "2026-03-09") == "2026-03-09T07:00:00Z")
        #expect(try start("America/Los_Angeles", "2026-11-01") == "2026-11-01T07:00:00Z")
        #expect(try start("America/Los_Angeles", "2026-11-02") == "2026-11-02T08:00:00Z")
    }

    @Test func midnightThatDoesNotExistStartsAtTheTransition() throws {
        // America/Santiago springs forward at 24:00 → the day starts at 01:00 local.
        var zones = ZoneCatalog()
        let id = try #require(zones.id(named: "America/Santiago") as ZoneID?)
        let date = try #require(LocalDate("2026-09-06"))
        let begin = zones.startOfDay(id, date)
        #expect(zones.localDate(id, begin) == date)
        #expect(zones.localDate(id, Instant(micros: begin.micros - 1)) == date.adding(days: -1))
    }

    @Test func unknownNamesAreRefusedAndUTCIsKnown() {
        var zones = ZoneCatalog()
        #expect(zones.id(named: "Mars/Olympus") == nil)
        #expect(zones.id(named: "") == nil)
        #expect(zones.id(named: "UTC") != nil)
        #expect(zones.id(named: "Asia/Kolkata") != nil)
    }

    @Test func fixedOffsetZoneKeepsTheWrittenWallClockDate() throws {
        let zones = ZoneCatalog()
        let id = zones.id(fixedOffset: -28_800)
        #expect(zones.name(of: id) == "UTC-08:00")
        let parsed = try #require(parseAsOf("2026-03-22 23:30:00 -0800"))
        #expect(zones.localDate(id, parsed.instant).description == "2026-03-22")
    }

    /// Zones asked for once the drop is read (UTC, fixed offsets) need no
    /// entry: their ids are the same in every catalog, so threads that share
    /// one only read it, and ids from one copy mean the same in another.
    @Test func utcAndFixedOffsetsHaveTheSameIDInEveryCatalog() throws {
        var first = ZoneCatalog()
        #expect(first.id(named: "Europe/Berlin") != nil)
        let second = ZoneCatalog()
        #expect(first.id(named: "UTC") == ZoneCatalog.utc)
        #expect(first.name(of: ZoneCatalog.utc) == "UTC")
        #expect(second.name(of: ZoneCatalog.utc) == "UTC")
        for offset: Int32 in [0, 19_800, -3_600, 18 * 3600 + 59 * 60, -(18 * 3600 + 59 * 60)] {
            #expect(first.id(fixedOffset: offset) == second.id(fixedOffset: offset))
            #expect(first.id(fixedOffset: offset) < 0)
        }
        #expect(first.id(fixedOffset: 19_800) != first.id(fixedOffset: -19_800))
        #expect(second.name(of: first.id(fixedOffset: 19_800)) == "UTC+05:30")
        #expect(second.name(of: first.id(fixedOffset: -3_600)) == "UTC-01:00")
        #expect(second.name(of: first.id(fixedOffset: 0)) == "UTC+00:00")
    }

    /// A fixed offset's zone keeps its offset inside the precomputed range;
    /// outside it (before 1970, from 2050) it asks Foundation's zone of that
    /// offset, as when these zones were entries of the catalog.
    @Test func fixedOffsetsOutsideThePrecomputedRangeAskFoundation() {
        let zones = ZoneCatalog()
        for offset: Int32 in [19_800, -28_800, 18 * 3600 + 30 * 60] {
            let id = zones.id(fixedOffset: offset)
            let foundation = TimeZone(secondsFromGMT: Int(offset)) ?? TimeZone(identifier: "UTC")
            for seconds: Int64 in [-86_400, 2_524_608_000 + 86_400] {
                let expected = foundation?.secondsFromGMT(for: Date(timeIntervalSince1970: Double(seconds)))
                #expect(Int(zones.offset(id, atSeconds: seconds)) == expected)
            }
            #expect(zones.offset(id, atSeconds: 1_772_409_600) == offset)
        }
    }
}
