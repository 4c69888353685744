import Foundation

/// A time zone known to the run, by dense index (cheap to store per row).
public typealias ZoneID = Int32

/// The IANA zones of a run with their UTC-offset transitions precomputed, so
/// "local date of an instant" and "start of a local day" are a binary search
/// instead of a calendar call per row. DST days are simply 23 or 25 hours long.
public final class ZoneCatalog: @unchecked Sendable {
    private struct Zone {
        var name: String
        var timeZone: TimeZone
        /// Transition instants (seconds) and the offset in force from each on.
        var transitions: [Int64]
        var offsets: [Int32]
        var initialOffset: Int32
    }

    private var zones: [Zone] = []
    private var ids: [String: ZoneID] = [:]
    private let lock = NSLock()
    private static let validNames: Set<String> = {
        var names = Set(TimeZone.knownTimeZoneIdentifiers)
        names.insert("UTC")
        return names
    }()
    private static let rangeStart: Int64 = 0  // 1970-01-01
    private static let rangeEnd: Int64 = 2_524_608_000  // 2050-01-01

    public init() {}

    /// An independent catalog with the same zones under the same ids: work
    /// that runs alongside another thread resolves zones in its own copy,
    /// because adding a zone (a new fixed offset) would race with reads.
    func copy() -> ZoneCatalog {
        lock.lock()
        defer { lock.unlock() }
        let copy = ZoneCatalog()
        copy.zones = zones
        copy.ids = ids
        return copy
    }

    /// The id of an IANA zone name; nil when the name is not a tz database key.
    public func id(named name: String) -> ZoneID? {
        lock.lock()
        defer { lock.unlock() }
        if let id = ids[name] { return id }
        guard ZoneCatalog.isKnown(name), let timeZone = TimeZone(identifier: name) else { return nil }
        let zone = ZoneCatalog.build(name: name, timeZone: timeZone)
        let id = ZoneID(zones.count)
        zones.append(zone)
        ids[name] = id
        return id
    }

    /// A zone with a fixed offset (`UTC-08:00`): the §1.2 fallback that keeps
    /// the wall-clock date an instant was written with.
    public func id(fixedOffset seconds: Int32) -> ZoneID {
        let sign = seconds < 0 ? "-" : "+"
        let magnitude = Int(abs(seconds))
        let name = "UTC" + sign + pad(magnitude / 3600, 2) + ":" + pad(magnitude / 60 % 60, 2)
        lock.lock()
        defer { lock.unlock() }
        if let id = ids[name] { return id }
        let timeZone = TimeZone(secondsFromGMT: Int(seconds)) ?? TimeZone(identifier: "UTC") ?? TimeZone.current
        let id = ZoneID(zones.count)
        zones.append(Zone(name: name, timeZone: timeZone, transitions: [], offsets: [], initialOffset: seconds))
        ids[name] = id
        return id
    }

    static func isKnown(_ name: String) -> Bool {
        if validNames.contains(name) { return true }
        // The system tz database may know links ICU does not list.
        guard !name.isEmpty, !name.contains(".."), !name.hasPrefix("/") else { return false }
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: "/usr/share/zoneinfo/" + name, isDirectory: &isDirectory)
            && !isDirectory.boolValue && name.first?.isUppercase == true
    }

    public func name(of id: ZoneID) -> String {
        lock.lock()
        defer { lock.unlock() }
        return zones[Int(id)].name
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
        let zone = zones[Int(zoneID)]
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
