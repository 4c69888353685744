import DayfoldCore
import Foundation

/// UTC offsets of the synthetic clients' zones, one per zone per local day,
/// looked up once from the tz database so that writing a row never asks
/// Foundation. An offset is the one in effect at local noon: every synthetic
/// wall time falls between 05:00 and 24:00, after the night-time DST switch,
/// so 23- and 25-hour days come out right.
struct ZoneOffsetTable: Sendable {
    /// The zones clients are drawn from, with their weights (out of 100).
    static let zones: [(name: String, weight: Int)] = [
        ("Europe/Berlin", 24), ("America/Los_Angeles", 14), ("America/New_York", 14), ("Asia/Kolkata", 10),
        ("Australia/Sydney", 10), ("Europe/London", 10), ("America/Mexico_City", 6), ("Asia/Tokyo", 6), ("UTC", 6),
    ]

    let names: [[UInt8]]
    private let firstDay: Int
    private let dayCount: Int
    private var offsets: [Int32]

    /// Builds offsets for days `firstDay...lastDay` (days since 1970-01-01).
    init(firstDay: Int, lastDay: Int) throws {
        precondition(lastDay >= firstDay, "empty day range")
        self.firstDay = firstDay
        dayCount = lastDay - firstDay + 1
        names = Self.zones.map { Array($0.name.utf8) }
        offsets = []
        offsets.reserveCapacity(Self.zones.count * dayCount)
        for zone in Self.zones {
            guard let timeZone = TimeZone(identifier: zone.name) else {
                throw DayfoldError(
                    .configuration, "time zone \(zone.name) is not in this system's tz database", fix: "install tzdata")
            }
            for day in firstDay...lastDay {
                let noonUTC = Double(day) * 86_400 + 43_200
                let guess = timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: noonUTC))
                let offset = timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: noonUTC - Double(guess)))
                offsets.append(Int32(offset))
            }
        }
    }

    /// The offset (seconds east of UTC) of `zone` on local `day`; days outside
    /// the table use its nearest edge.
    func offset(zone: Int, day: Int) -> Int {
        let index = min(max(day - firstDay, 0), dayCount - 1)
        return Int(offsets[zone * dayCount + index])
    }

    /// The instant `minuteOfDay` minutes after local midnight of `day` in
    /// `zone`; minutes past 24:00 roll into the next day (and its offset).
    func instant(zone: Int, day: Int, minuteOfDay: Int) -> SyntheticInstant {
        let carry = minuteOfDay >= 0 ? minuteOfDay / 1440 : (minuteOfDay - 1439) / 1440
        let localDay = day + carry
        return SyntheticInstant(
            day: localDay, minuteOfDay: minuteOfDay - carry * 1440, offsetSeconds: offset(zone: zone, day: localDay))
    }

    /// The zone drawn for a weight roll in `0..<100`.
    static func zone(forRoll roll: Int) -> Int {
        var remaining = roll
        for (index, zone) in zones.enumerated() {
            if remaining < zone.weight { return index }
            remaining -= zone.weight
        }
        return zones.count - 1
    }
}
