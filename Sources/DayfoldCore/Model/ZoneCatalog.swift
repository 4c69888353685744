import Foundation

/// A time zone known to the run (cheap to store per row): a named zone by
/// its dense index in the catalog (0 is UTC), a fixed offset by a negative
/// id made from the offset itself. Ids are compared, never ordered or written.
public typealias ZoneID = Int32

/// The IANA zones of a run with their UTC-offset transitions precomputed, so
/// "local date of an instant" and "start of a local day" are a binary search
/// instead of a calendar call per row. DST days are simply 23 or 25 hours long.
///
/// A value: named zones are added while the drop is read (`id(named:)`), and
/// every copy keeps the ids it has. The zones asked for after that, UTC and
/// fixed offsets (`UTC-08:00`, asked per row), need no entry: their ids are
/// the same in every catalog, so a catalog shared by threads is only read.
public struct ZoneCatalog: Sendable {
    private struct Zone: Sendable {
        var name: String
        var timeZone: TimeZone
        /// Transition instants (seconds) and the offset in force from each on.
        var transitions: [Int64]
        var offsets: [Int32]
        var initialOffset: Int32
    }

    /// Named zones by id (`utc` first) and their names' ids; fixed-offset
    /// ids are negative and index nothing.
    private final class Table: Sendable {
        let zones: [Zone]
        let ids: [String: ZoneID]

        init(zones: [Zone], ids: [String: ZoneID]) {
            self.zones = zones
            self.ids = ids
        }
    }

    /// One reference, not an array and a dictionary: per-user resolvers hold
    /// a catalog, and are copied per row where they are read (an extra
    /// reference to retain and release each time). A new zone makes a new
    /// table (a few hundred zones at most, each added once).
    private var table: Table
    private static let validNames: Set<String> = {
        var names = Set(TimeZone.knownTimeZoneIdentifiers)
        names.insert("UTC")
        return names
    }()
    private static let rangeStart: Int64 = 0  // 1970-01-01
    private static let rangeEnd: Int64 = 2_524_608_000  // 2050-01-01
    /// Fixed offsets map onto the negative ids: `fixedBase + seconds`, for
    /// offsets within ±`fixedBase` seconds (an instant's offset is within ±19 h).
    private static let fixedBase: Int64 = 1 << 30

    /// The `UTC` zone (the last fallback, SPEC §1.2): in every catalog, under this id.
    public static let utc: ZoneID = 0

    /// The named zones in id order (UTC first): calling `id(named:)` with
    /// each on a new catalog gives them the same ids (a stored reading's
    /// catalog is made again that way, `ReadingArchive`).
    var zoneNames: [String] { table.zones.map(\.name) }

    public init() {
        let utcZone = TimeZone(identifier: "UTC") ?? TimeZone(secondsFromGMT: 0) ?? TimeZone.current
        table = Table(zones: [ZoneCatalog.build(name: "UTC", timeZone: utcZone)], ids: ["UTC": ZoneCatalog.utc])
    }

    /// The id of an IANA zone name, added when new; nil when the name is not
    /// a tz database key.
    public mutating func id(named name: String) -> ZoneID? {
        if let id = table.ids[name] { return id }
        guard ZoneCatalog.isKnown(name), let timeZone = TimeZone(identifier: name) else { return nil }
        let id = ZoneID(table.zones.count)
        var ids = table.ids
        ids[name] = id
        table = Table(zones: table.zones + [ZoneCatalog.build(name: name, timeZone: timeZone)], ids: ids)
        return id
    }

    /// A zone with a fixed offset (`UTC-08:00`): the §1.2 fallback that keeps
    /// the wall-clock date an instant was written with. The id is made from
    /// the offset alone (no lookup, nothing added).
    public func id(fixedOffset seconds: Int32) -> ZoneID {
        ZoneCatalog.fixedID(seconds)
    }

    private static func fixedID(_ seconds: Int32) -> ZoneID {
        precondition(abs(Int64(seconds)) < fixedBase, "a UTC offset of \(seconds) s")
        return ZoneID(Int64(Int32.min) + fixedBase + Int64(seconds))
    }

    /// The offset of a fixed-offset id (`id < 0`).
    private static func fixedSeconds(_ id: ZoneID) -> Int32 {
        Int32(Int64(id) - Int64(Int32.min) - fixedBase)
    }

    static func isKnown(_ name: String) -> Bool {
        if validNames.contains(name) { return true }
        // The system tz database may know links ICU does not list.
        guard !name.isEmpty, !name.contains(".."), !name.hasPrefix("/") else { return false }
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: "/usr/share/zoneinfo/" + name, isDirectory: &isDirectory)
            && !isDirectory.boolValue && name.first?.isUppercase == true
    }

    /// The named zones the catalog holds: their ids are `0..<namedCount`
    /// (a fixed offset's id is computed from its seconds).
    var namedCount: Int { table.zones.count }

    public func name(of id: ZoneID) -> String {
        guard id < 0 else { return table.zones[Int(id)].name }
        let seconds = ZoneCatalog.fixedSeconds(id)
        let sign = seconds < 0 ? "-" : "+"
        let magnitude = Int(abs(seconds))
        return "UTC" + sign + pad(magnitude / 3600, 2) + ":" + pad(magnitude / 60 % 60, 2)
    }

    private static func build(name: String, timeZone: TimeZone) -> Zone {
        var transitions: [Int64] = []
        var offsets: [Int32] = []
        let initial = Int32(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(rangeStart))))
        var cursor = Date(timeIntervalSince1970: Double(rangeStart))
        while let next = timeZone.nextDaylightSavingTimeTransition(after: cursor),
            next.timeIntervalSince1970 < Double(rangeEnd)
        {
            let seconds = Int64(next.timeIntervalSince1970.rounded())
            let offset = Int32(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(seconds))))
            if offsets.last ?? initial != offset {
                transitions.append(seconds)
                offsets.append(offset)
            }
            guard next > cursor else { break }
            cursor = next
        }
        return Zone(name: name, timeZone: timeZone, transitions: transitions, offsets: offsets, initialOffset: initial)
    }

    /// UTC offset in seconds of `zone` at `seconds` since the epoch.
    public func offset(_ zoneID: ZoneID, atSeconds seconds: Int64) -> Int32 {
        guard zoneID >= 0 else { return ZoneCatalog.fixedOffset(zoneID, atSeconds: seconds) }
        let zone = table.zones[Int(zoneID)]
        if seconds < ZoneCatalog.rangeStart || seconds >= ZoneCatalog.rangeEnd {
            return Int32(zone.timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(seconds))))
        }
        var low = 0
        var high = zone.transitions.count
        while low < high {
            let mid = (low + high) / 2
            if zone.transitions[mid] <= seconds { low = mid + 1 } else { high = mid }
        }
        return low == 0 ? zone.initialOffset : zone.offsets[low - 1]
    }

    /// A fixed-offset zone's offset: its own inside the precomputed range;
    /// outside it, what Foundation's zone of that offset says (UTC for an
    /// offset it refuses), as when these zones were entries of their own.
    private static func fixedOffset(_ zoneID: ZoneID, atSeconds seconds: Int64) -> Int32 {
        let offset = fixedSeconds(zoneID)
        guard seconds < rangeStart || seconds >= rangeEnd else { return offset }
        let timeZone = TimeZone(secondsFromGMT: Int(offset)) ?? TimeZone(identifier: "UTC") ?? TimeZone.current
        return Int32(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(seconds))))
    }

    /// The local date of an instant in a zone.
    public func localDate(_ zoneID: ZoneID, _ instant: Instant) -> LocalDate {
        let seconds = instant.seconds
        let local = seconds + Int64(offset(zoneID, atSeconds: seconds))
        return LocalDate(days: Int32(local >= 0 ? local / 86_400 : (local - 86_399) / 86_400))
    }

    /// The first instant of local date `date` in `zone` (DST-aware; when
    /// midnight does not exist the day starts at the transition).
    public func startOfDay(_ zoneID: ZoneID, _ date: LocalDate) -> Instant {
        let wall = Int64(date.days) * 86_400
        let before = offset(zoneID, atSeconds: wall - 86_400 - 14 * 3600)
        let after = offset(zoneID, atSeconds: wall + 86_400 + 14 * 3600)
        var best: Int64?
        for candidateOffset in [before, after] {
            let candidate = wall - Int64(candidateOffset)
            if candidate + Int64(offset(zoneID, atSeconds: candidate)) == wall {
                best = min(best ?? candidate, candidate)
            }
        }
        if let best { return Instant(seconds: best) }
        // Midnight falls in a gap: the day begins at the transition, i.e. the
        // first instant whose wall clock is past midnight.
        return Instant(seconds: wall - Int64(before))
    }
}
