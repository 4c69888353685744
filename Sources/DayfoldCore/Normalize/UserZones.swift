import Synchronization

/// Answers "which zone was this user in" (SPEC §1.2, §9 Time zones): the
/// time-zone history first, then the user's latest task instance, then the
/// pipeline's default zone, then the offset written in the instant itself
/// (UTC when there is none). Each fallback used is remembered once as a
/// warning.
///
/// The sources are immutable, so the answers are pure; only the record of
/// the fallbacks used changes, behind a lock. One resolver is shared by every
/// thread of a run (the facts' sides, ingest's health side), and every
/// thread's fallbacks land in the one record the manifest reads. The lock is
/// taken once per lookup by user name; work that asks row after row about
/// the same user takes a `Resolver` or `DaySchedule` (plain values) once.
public final class UserZones: Sendable {
    let zones: ZoneCatalog
    let history: [String: [TimezoneRow]]
    let latestInstanceZone: [String: ZoneID]
    let defaultZone: ZoneID?
    private let fallbacks = Mutex(Fallbacks())

    /// The fallbacks used so far: the warnings, and which user has had which
    /// one (so each is recorded once, without building its text again).
    private struct Fallbacks {
        var warningsByUser: [String: Set<String>] = [:]
        var configured: Set<String> = []
        var offset: Set<String> = []
        var utc: Set<String> = []
    }

    /// Each fallback used, per user (a partitioned run keeps its own users').
    var warningsByUser: [String: Set<String>] { fallbacks.withLock { $0.warningsByUser } }
    var warnings: Set<String> { warningsByUser.values.reduce(into: Set<String>()) { $0.formUnion($1) } }

    init(
        zones: ZoneCatalog, history: [String: [TimezoneRow]], latestInstanceZone: [String: ZoneID], defaultZone: ZoneID?
    ) {
        self.zones = zones
        self.history = history
        self.latestInstanceZone = latestInstanceZone
        self.defaultZone = defaultZone
    }

    /// The same sources with a record of its own, empty: for lookups whose
    /// fallbacks are not the run's (an as-of series' earlier steps, whose
    /// zones at their own as-ofs the run's manifest does not report).
    func withOwnRecord() -> UserZones {
        UserZones(zones: zones, history: history, latestInstanceZone: latestInstanceZone, defaultZone: defaultZone)
    }

    private static func warn(_ user: String, _ text: String, in fallbacks: inout Fallbacks) {
        fallbacks.warningsByUser[user, default: []].insert("timezone fallback for user \(user): \(text)")
    }

    /// A zone that does not depend on an instant, or nil when only the
    /// instant's own offset (or UTC) is left.
    private func configuredZone(_ user: String) -> ZoneID? {
        let zone: ZoneID
        let source: String
        if let latest = latestInstanceZone[user] {
            (zone, source) = (latest, "latest_task_instance")
        } else if let fallback = defaultZone {
            (zone, source) = (fallback, "default_timezone")
        } else {
            return nil
        }
        fallbacks.withLock {
            if $0.configured.insert(user).inserted { Self.warn(user, "\(source) \(zones.name(of: zone))", in: &$0) }
        }
        return zone
    }

    fileprivate static func fromHistory(_ rows: [TimezoneRow], _ isInEffect: (TimezoneRow) -> Bool) -> ZoneID {
        var chosen = rows[0].zone
        for row in rows where isInEffect(row) { chosen = row.zone }
        return chosen
    }

    /// The user's zone at an instant.
    public func zone(_ user: String, at instant: ParsedInstant) -> ZoneID {
        resolver(user).zone(at: instant)
    }

    /// The user's zone on a local date: the zone in effect when the date began.
    public func zone(_ user: String, on date: LocalDate) -> ZoneID {
        schedule(user).zone(on: date)
    }

    /// One user's zone by local date (as `zone(_:on:)` gives it), with the
    /// user's source looked up once: day tables ask for every date of a
    /// user. Make one only when a date follows: without a history it asks
    /// for the user's fallback zone (recording its warning) at once.
    func schedule(_ user: String) -> DaySchedule {
        if let rows = history[user], !rows.isEmpty { return DaySchedule(zones: zones, history: rows, fixed: nil) }
        return DaySchedule(zones: zones, history: [], fixed: configuredZone(user) ?? utc(user))
    }

    /// A user's zone by local date (see `schedule(_:)`).
    struct DaySchedule: Sendable {
        let zones: ZoneCatalog
        let history: [TimezoneRow]
        let fixed: ZoneID?

        /// The zone in effect when the date began.
        func zone(on date: LocalDate) -> ZoneID {
            if let fixed { return fixed }
            return UserZones.fromHistory(history) { $0.effectiveFrom <= zones.startOfDay($0.zone, date) }
        }
    }

    /// The user's zone with no instant and no history: UTC, the last fallback.
    func utc(_ user: String) -> ZoneID {
        fallbacks.withLock {
            if $0.utc.insert(user).inserted { Self.warn(user, "utc_last_fallback UTC", in: &$0) }
        }
        return ZoneCatalog.utc
    }

    /// Whether the user's zone comes from configuration rather than the instants themselves.
    func hasConfiguredZone(_ user: String) -> Bool {
        if let rows = history[user], !rows.isEmpty { return true }
        return configuredZone(user) != nil
    }

    /// Where a push recipient's zone comes from (SPEC §11.1), looked up once
    /// per user: the history, else the latest task instance; the zone of the
    /// installation a push went to comes next, then the pipeline's default,
    /// then UTC — never the offset a server wrote an instant with. No
    /// fallback is recorded: coaches, most recipients of coach pushes, have
    /// no zone of their own, and the zone warnings are about clients' days.
    func pushSource(_ user: String) -> PushZoneSource {
        PushZoneSource(history: history[user] ?? [], latest: latestInstanceZone[user], defaultZone: defaultZone)
    }

    /// One push recipient's zone source (see `pushSource(_:)`).
    struct PushZoneSource: Sendable {
        let history: [TimezoneRow]
        let latest: ZoneID?
        let defaultZone: ZoneID?

        func zone(at instant: Instant, installationZone: ZoneID?) -> ZoneID {
            if !history.isEmpty { return UserZones.fromHistory(history) { $0.effectiveFrom <= instant } }
            return latest ?? installationZone ?? defaultZone ?? ZoneCatalog.utc
        }
    }

    /// The local date of an instant for a user.
    public func localDate(_ user: String, _ instant: ParsedInstant) -> LocalDate {
        zones.localDate(zone(user, at: instant), instant.instant)
    }

    /// One user's lookups with the choice of source made once: work that asks
    /// about the same user row after row skips the String-keyed lookups (and
    /// the lock). Make one only when a lookup follows, since it records the
    /// fallback warning that the first lookup would.
    func resolver(_ user: String) -> Resolver {
        if let rows = history[user], !rows.isEmpty { return Resolver(zones: zones, history: rows, configured: nil) }
        if let zone = configuredZone(user) { return Resolver(zones: zones, history: [], configured: zone) }
        fallbacks.withLock {
            if $0.offset.insert(user).inserted { Self.warn(user, "instant_offset (as written)", in: &$0) }
        }
        return Resolver(zones: zones, history: [], configured: nil)
    }

    /// A user's zone source, as `zone(_:at:)` chooses it.
    struct Resolver: Sendable {
        let zones: ZoneCatalog
        let history: [TimezoneRow]
        let configured: ZoneID?

        func zone(at instant: ParsedInstant) -> ZoneID {
            if !history.isEmpty { return UserZones.fromHistory(history) { $0.effectiveFrom <= instant.instant } }
            return configured ?? zones.id(fixedOffset: instant.offsetSeconds)
        }

        func localDate(_ instant: ParsedInstant) -> LocalDate {
            zones.localDate(zone(at: instant), instant.instant)
        }
    }
}
