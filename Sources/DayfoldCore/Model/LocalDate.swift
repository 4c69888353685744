/// A calendar date with no time zone: days since 1970-01-01.
/// Stored as an integer so day tables are dense arrays and date math is `+ 1`.
public struct LocalDate: Hashable, Comparable, Sendable, BitwiseCopyable, Codable, CustomStringConvertible {
    public var days: Int32

    public init(days: Int32) { self.days = days }

    public init?(year: Int, month: Int, day: Int) {
        guard (1...12).contains(month), day >= 1, day <= LocalDate.daysIn(month: month, year: year) else { return nil }
        days = Int32(LocalDate.daysFromCivil(year, month, day))
    }

    public static func < (lhs: LocalDate, rhs: LocalDate) -> Bool { lhs.days < rhs.days }

    public func adding(days count: Int) -> LocalDate { LocalDate(days: days + Int32(count)) }

    /// Civil fields (proleptic Gregorian).
    public var components: (year: Int, month: Int, day: Int) { LocalDate.civil(fromDays: Int(days)) }

    public var description: String {
        let (year, month, day) = components
        return pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2)
    }

    /// Appends `description`'s bytes for years 0–9999 (every date a drop
    /// holds) and returns true; other years return false and append nothing.
    func appendISOText(into output: inout [UInt8]) -> Bool {
        let (year, month, day) = components
        guard (0...9999).contains(year) else { return false }
        func two(_ value: Int) {
            output.append(UInt8(truncatingIfNeeded: 0x30 + value / 10))
            output.append(UInt8(truncatingIfNeeded: 0x30 + value % 10))
        }
        two(year / 100)
        two(year % 100)
        output.append(0x2D)
        two(month)
        output.append(0x2D)
        two(day)
        return true
    }

    /// Parses `YYYY-MM-DD`; nil when malformed.
    public init?(_ text: String) {
        let bytes = Array(text.utf8)
        guard let date = LocalDate.parse(bytes, 0, bytes.count) else { return nil }
        self = date
    }

    static func parse<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes, _ start: Int, _ end: Int) -> LocalDate?
    where Bytes.Index == Int {
        guard end - start == 10, bytes[start + 4] == 0x2D, bytes[start + 7] == 0x2D,
            let year = digits(bytes, start, 4), let month = digits(bytes, start + 5, 2),
            let day = digits(bytes, start + 8, 2)
        else { return nil }
        return LocalDate(year: year, month: month, day: day)
    }

    /// The dates an input may hold (SPEC §10): 1970-01-01 … 2199-12-31. A
    /// date beyond them is a typo or hostile (`0000-01-01` as `started_on`
    /// made a 740 000-day table); tables dense between two dates stay small.
    static let inputRange = LocalDate(days: 0)...LocalDate(days: 84_005)

    /// `parse` for an input field: nil also for a date outside `inputRange`.
    static func parseInput<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes, _ start: Int, _ end: Int)
        -> LocalDate? where Bytes.Index == Int
    {
        guard let date = parse(bytes, start, end), inputRange.contains(date) else { return nil }
        return date
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date. `package` so the
    /// generator (DayfoldGenerate) counts days exactly as the pipeline does.
    package static func daysFromCivil(_ year: Int, _ month: Int, _ day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The (year, month, day) of a day number; the inverse of `daysFromCivil`,
    /// `package` for the same reason.
    package static func civil(fromDays value: Int) -> (Int, Int, Int) {
        let z = value + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

/// Reads `count` ASCII digits; nil when any is not a digit.
@inline(__always)
func digits<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes, _ start: Int, _ count: Int) -> Int?
where Bytes.Index == Int {
    guard start >= bytes.startIndex, start + count <= bytes.endIndex else { return nil }
    var value = 0
    for index in start..<(start + count) {
        let digit = Int(bytes[index]) - 48
        guard digit >= 0 && digit <= 9 else { return nil }
        value = value * 10 + digit
    }
    return value
}

func pad(_ value: Int, _ width: Int) -> String {
    let text = String(value)
    return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
}
