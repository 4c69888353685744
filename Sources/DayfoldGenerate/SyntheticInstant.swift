import DayfoldCore

/// An instant as a device or server would write it: UTC seconds plus the
/// offset of the wall clock it was recorded on.
struct SyntheticInstant: Sendable {
    var utcSeconds: Int64
    var offsetSeconds: Int

    /// The local wall-clock seconds since 1970-01-01T00:00 (local).
    var localSeconds: Int64 { utcSeconds + Int64(offsetSeconds) }

    /// `minuteOfDay` minutes after local midnight of `day` (days since
    /// 1970-01-01), on a clock that runs `offsetSeconds` ahead of UTC.
    init(day: Int, minuteOfDay: Int, offsetSeconds: Int) {
        self.offsetSeconds = offsetSeconds
        utcSeconds = Int64(day) * 86_400 + Int64(minuteOfDay) * 60 - Int64(offsetSeconds)
    }

    init(utcSeconds: Int64, offsetSeconds: Int) {
        self.utcSeconds = utcSeconds
        self.offsetSeconds = offsetSeconds
    }

    /// The same instant `seconds` later, on the same clock.
    func adding(seconds: Int) -> SyntheticInstant {
        SyntheticInstant(utcSeconds: utcSeconds + Int64(seconds), offsetSeconds: offsetSeconds)
    }
}

/// The instant spellings SPEC §1.1 accepts (and one it rejects), mixed the
/// way real exports mix them.
enum InstantStyle: Sendable {
    /// `2026-03-08T07:15:00+01:00`
    case isoOffset
    /// `2026-03-08T07:15:00.250+01:00`
    case isoOffsetMillis
    /// `2026-03-08T06:15:00Z`
    case isoUTC
    /// `2026-03-08 06:15:00+00` (PostgreSQL text)
    case postgresUTC
    /// `2026-03-08 07:15:00 +0100` (Apple Health)
    case appleHealth
    /// `2026-03-08T07:15:00`: no offset, a row the pipeline must reject.
    case missingOffset
}

/// Calendar arithmetic on day numbers (days since 1970-01-01), shared with
/// `LocalDate` so the generator and the pipeline count days the same way.
enum CivilCalendar {
    static func date(fromDay day: Int) -> (year: Int, month: Int, day: Int) { LocalDate.civil(fromDays: day) }

    static func day(year: Int, month: Int, day: Int) -> Int { LocalDate.daysFromCivil(year, month, day) }

    /// 0 = Sunday … 6 = Saturday.
    static func weekday(ofDay day: Int) -> Int {
        let remainder = (day + 4) % 7
        return remainder < 0 ? remainder + 7 : remainder
    }

    /// Parses `YYYY-MM-DD`; nil when malformed or not a real date.
    static func parseDay(_ text: String) -> Int? { LocalDate(text).map { Int($0.days) } }
}
