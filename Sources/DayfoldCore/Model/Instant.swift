/// A point in time: microseconds since 1970-01-01T00:00:00Z.
/// `writtenOffset` keeps the offset the source wrote, which SPEC §1.2 uses as
/// the last time-zone fallback (the wall-clock date as the device recorded it).
public struct Instant: Hashable, Comparable, Sendable, BitwiseCopyable, CustomStringConvertible {
    public var micros: Int64

    public init(micros: Int64) { self.micros = micros }
    public init(seconds: Int64) { micros = seconds * 1_000_000 }

    public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.micros < rhs.micros }

    public var seconds: Int64 { micros >= 0 ? micros / 1_000_000 : (micros - 999_999) / 1_000_000 }

    /// UTC ISO-8601: `2026-03-08T07:15:00Z`, with a fraction only when there is one.
    public var description: String {
        let secs = seconds
        let fraction = Int(micros - secs * 1_000_000)
        let dayCount = secs >= 0 ? secs / 86_400 : (secs - 86_399) / 86_400
        let secondOfDay = Int(secs - dayCount * 86_400)
        var text =
            LocalDate(days: Int32(dayCount)).description + "T" + pad(secondOfDay / 3600, 2) + ":"
            + pad(secondOfDay / 60 % 60, 2) + ":" + pad(secondOfDay % 60, 2)
        if fraction != 0 {
            var digitsText = pad(fraction, 6)
            while digitsText.hasSuffix("0") { digitsText.removeLast() }
            text += "." + digitsText
        }
        return text + "Z"
    }

    /// Appends `description`'s text without building a String (false, and
    /// nothing appended, for a year outside 0...9999).
    func appendISOText(into output: inout [UInt8]) -> Bool {
        let secs = seconds
        let fraction = Int(micros - secs * 1_000_000)
        let dayCount = secs >= 0 ? secs / 86_400 : (secs - 86_399) / 86_400
        let secondOfDay = Int(secs - dayCount * 86_400)
        guard let days = Int32(exactly: dayCount), LocalDate(days: days).appendISOText(into: &output) else {
            return false
        }
        func two(_ value: Int) {
            output.append(UInt8(truncatingIfNeeded: 0x30 + value / 10))
            output.append(UInt8(truncatingIfNeeded: 0x30 + value % 10))
        }
        output.append(0x54)  // T
        two(secondOfDay / 3600)
        output.append(0x3A)
        two(secondOfDay / 60 % 60)
        output.append(0x3A)
        two(secondOfDay % 60)
        if fraction != 0 {
            var digits = fraction
            var width = 6
            while digits % 10 == 0 {
                digits /= 10
                width -= 1
            }
            output.append(0x2E)
            var divisor = 1
            for _ in 1..<width { divisor *= 10 }
            while divisor > 0 {
                output.append(UInt8(truncatingIfNeeded: 0x30 + digits / divisor % 10))
                divisor /= 10
            }
        }
        output.append(0x5A)  // Z
        return true
    }
}

/// An instant parsed from text, with the UTC offset (seconds) it was written with.
public struct ParsedInstant: Sendable, BitwiseCopyable, Hashable {
    public var instant: Instant
    public var offsetSeconds: Int32

    public init(instant: Instant, offsetSeconds: Int32) {
        self.instant = instant
        self.offsetSeconds = offsetSeconds
    }
}

enum InstantParser {
    /// Parses the instant forms of SPEC §1.1/§9 (and Apple Health's compact
    /// `20150616071916-0700`); nil when malformed or without an offset.
    static func parse<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes, _ start: Int, _ end: Int) -> ParsedInstant?
    where Bytes.Index == Int {
        if end - start >= 19, bytes[start + 4] != 0x2D {
            return parseCompact(bytes, start, end)
        }
        guard end - start >= 16, let date = LocalDate.parse(bytes, start, start + 10) else { return nil }
        let separator = bytes[start + 10]
        guard separator == 0x54 || separator == 0x20 || separator == 0x74 else { return nil }
        var index = start + 11
        guard let hour = digits(bytes, index, 2), index + 2 < end, bytes[index + 2] == 0x3A,
            let minute = digits(bytes, index + 3, 2), hour < 24, minute < 60
        else { return nil }
        index += 5
        var second = 0
        var fraction: Int64 = 0
        if index < end && bytes[index] == 0x3A {
            guard let value = digits(bytes, index + 1, 2), value < 60 else { return nil }
            second = value
            index += 3
            if index < end && (bytes[index] == 0x2E || bytes[index] == 0x2C) {
                index += 1
                var count = 0
                var scale: Int64 = 100_000
                while index < end, bytes[index] >= 0x30, bytes[index] <= 0x39 {
                    if count < 6 {
                        fraction += Int64(bytes[index] - 0x30) * scale
                        scale /= 10
                    }
                    count += 1
                    index += 1
                }
                guard count > 0 else { return nil }
            }
        }
        guard let offset = parseOffset(bytes, index, end, allowSpace: true) else { return nil }
        let local = Int64(date.days) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
        return ParsedInstant(
            instant: Instant(micros: (local - Int64(offset)) * 1_000_000 + fraction), offsetSeconds: offset)
    }

    /// The instants an input may hold (SPEC §10): from 1970-01-01T00:00Z up
    /// to, not including, 2200-01-01T00:00Z (the UTC dates of
    /// `LocalDate.inputRange`), whatever offset they were written with.
    static let inputRange = Instant(micros: 0)..<Instant(seconds: 84_006 * 86_400)

    /// `parse` for an input field: nil also for an instant outside `inputRange`.
    static func parseInput<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes, _ start: Int, _ end: Int)
        -> ParsedInstant? where Bytes.Index == Int
    {
        guard let parsed = parse(bytes, start, end), inputRange.contains(parsed.instant) else { return nil }
        return parsed
    }

    private static func parseCompact<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes, _ start: Int, _ end: Int)
        -> ParsedInstant? where Bytes.Index == Int
    {
        guard let year = digits(bytes, start, 4), let month = digits(bytes, start + 4, 2),
            let day = digits(bytes, start + 6, 2), let hour = digits(bytes, start + 8, 2),
            let minute = digits(bytes, start + 10, 2), let second = digits(bytes, start + 12, 2),
            hour < 24, minute < 60, second < 60,
            let date = LocalDate(year: year, month: month, day: day),
            let offset = parseOffset(bytes, start + 14, end, allowSpace: true)
        else { return nil }
        let local = Int64(date.days) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
        return ParsedInstant(instant: Instant(seconds: local - Int64(offset)), offsetSeconds: offset)
    }

    /// `Z`, `±HH`, `±HHMM`, `±HH:MM`, optionally after one space.
    private static func parseOffset<Bytes: RandomAccessCollection<UInt8>>(
        _ bytes: Bytes, _ from: Int, _ end: Int, allowSpace: Bool
    ) -> Int32? where Bytes.Index == Int {
        var index = from
        if allowSpace && index < end && bytes[index] == 0x20 { index += 1 }
        guard index < end else { return nil }
        let sign = bytes[index]
        if sign == 0x5A || sign == 0x7A { return index + 1 == end ? 0 : nil }
        guard sign == 0x2B || sign == 0x2D else { return nil }
        index += 1
        guard let hours = digits(bytes, index, 2), hours <= 18 else { return nil }
        index += 2
        var minutes = 0
        if index < end {
            if bytes[index] == 0x3A { index += 1 }
            guard end - index == 2, let value = digits(bytes, index, 2), value < 60 else { return nil }
            minutes = value
        }
        let total = Int32(hours * 3600 + minutes * 60)
        return sign == 0x2D ? -total : total
    }
}

extension [Instant] {
    /// In instants sorted oldest first: how many are not after `instant`
    /// (the index of the first after it), by binary search.
    func countNotAfter(_ instant: Instant) -> Int { partitionPoint { $0 <= instant } }
}
