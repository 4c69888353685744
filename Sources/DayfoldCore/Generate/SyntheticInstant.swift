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

/// Proleptic Gregorian calendar arithmetic on day numbers (days since
/// 1970-01-01), after Howard Hinnant's `civil_from_days`/`days_from_civil`.
enum CivilCalendar {
    static func date(fromDay day: Int) -> (year: Int, month: Int, day: Int) {
        let z = day + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let dayOfMonth = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, dayOfMonth)
    }

    static func day(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// 0 = Sunday … 6 = Saturday.
    static func weekday(ofDay day: Int) -> Int {
        let remainder = (day + 4) % 7
        return remainder < 0 ? remainder + 7 : remainder
    }

    /// Parses `YYYY-MM-DD`; nil when malformed or not a real date.
    static func parseDay(_ text: String) -> Int? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let year = Int(parts[0]), let month = Int(parts[1]), let dayOfMonth = Int(parts[2]),
            (1...12).contains(month), (1...31).contains(dayOfMonth)
        else { return nil }
        let day = day(year: year, month: month, day: dayOfMonth)
        let back = date(fromDay: day)
        guard back.year == year, back.month == month, back.day == dayOfMonth else { return nil }
        return day
    }
}
