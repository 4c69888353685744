import Testing

@testable import DayfoldCore

/// Deadlines are "start of local_date + 2" in the task's zone: a DST day is
/// 23 or 25 hours, so the grace window is 47 or 49 hours, not 48.
@Suite struct ZoneCatalogTests {
    let zones = ZoneCatalog()

    func start(_ zone: String, _ date: String) throws -> String {
        let id = try #require(zones.id(named: zone))
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
        let id = try #require(zones.id(named: "America/Santiago"))
        let date = try #require(LocalDate("2026-09-06"))
        let begin = zones.startOfDay(id, date)
        #expect(zones.localDate(id, begin) == date)
        #expect(zones.localDate(id, Instant(micros: begin.micros - 1)) == date.adding(days: -1))
    }

    @Test func unknownNamesAreRefusedAndUTCIsKnown() {
        #expect(zones.id(named: "Mars/Olympus") == nil)
        #expect(zones.id(named: "") == nil)
        #expect(zones.id(named: "UTC") != nil)
        #expect(zones.id(named: "Asia/Kolkata") != nil)
    }

    @Test func fixedOffsetZoneKeepsTheWrittenWallClockDate() throws {
        let id = zones.id(fixedOffset: -28_800)
        #expect(zones.name(of: id) == "UTC-08:00")
        let parsed = try #require(parseAsOf("2026-03-22 23:30:00 -0800"))
        #expect(zones.localDate(id, parsed.instant).description == "2026-03-22")
    }
}
