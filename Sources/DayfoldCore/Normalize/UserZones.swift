/// Answers "which zone was this user in" (SPEC §1.2, §9 Time zones): the
/// time-zone history first, then the user's latest task instance, then the
/// pipeline's default zone, then the offset written in the instant itself
/// (UTC when there is none). Each fallback used is remembered once as a
/// warning; the choice per user is cached, since it is asked per row.
public final class UserZones: @unchecked Sendable {
    let zones: ZoneCatalog
    let history: [String: [TimezoneRow]]
    let latestInstanceZone: [String: ZoneID]
    let defaultZone: ZoneID?
    /// Each fallback used, per user (a partitioned run keeps its own users').
    private(set) var warningsByUser: [String: Set<String>] = [:]
    var warnings: Set<String> { warningsByUser.values.reduce(into: Set<String>()) { $0.formUnion($1) } }

    private func warn(_ user: String, _ text: String) {
        warningsByUser[user, default: []].insert("timezone fallback for user \(user): \(text)")
    }
    private var configured: [String: ZoneID?] = [:]
    private var warnedOffset: Set<String> = []
    private var warnedUTC: Set<String> = []

    init(
        zones: ZoneCatalog, history: [String: [TimezoneRow]], latestInstanceZone: [String: ZoneID], defaultZone: ZoneID?
    ) {
        self.zones = zones
        self.history = history
        self.latestInstanceZone = latestInstanceZone
        self.defaultZone = defaultZone
    }

    /// An independent resolver over a copy of the zone catalog (see
    /// `ZoneCatalog.copy`), with the same caches and warnings so far. Zone
    /// ids it creates are its own: only dates and zone names may leave it.
    func copy() -> UserZones {
        let copy = UserZones(
            zones: zones.copy(), history: history, latestInstanceZone: latestInstanceZone, defaultZone: defaultZone)
        copy.warningsByUser = warningsByUser
        copy.warnedOffset = warnedOffset
        copy.warnedUTC = warnedUTC
        return copy
    }

    /// Adds the warnings a copy gave (each fallback is still listed once).
    func absorbWarnings(of copy: UserZones) {
        for (user, texts) in copy.warningsByUser { warningsByUser[user, default: []].formUnion(texts) }
    }

    /// A zone that does not depend on an instant, or nil when only the
    /// instant's own offset (or UTC) is left.
    private func configuredZone(_ user: String) -> ZoneID? {
        if let cached = configured[user] { return cached }
        var zone: ZoneID?
        if let latest = latestInstanceZone[user] {
            warn(user, "latest_task_instance \(zones.name(of: latest))")
            zone = latest
        } else if let fallback = defaultZone {
            warn(user, "default_timezone \(zones.name(of: fallback))")
            zone = fallback
        }
        configured[user] = .some(zone)
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
    struct DaySchedule {
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
        if warnedUTC.insert(user).inserted {
            warn(user, "utc_last_fallback UTC")
        }
        return zones.id(named: "UTC") ?? zones.id(fixedOffset: 0)
    }

    /// Whether the user's zone comes from configuration rather than the instants themselves.
    func hasConfiguredZone(_ user: String) -> Bool {
        if let rows = history[user], !rows.isEmpty { return true }
        return configuredZone(user) != nil
    }

    /// The local date of an instant for a user.
    public func localDate(_ user: String, _ instant: ParsedInstant) -> LocalDate {
        zones.localDate(zone(user, at: instant), instant.instant)
    }

    /// One user's lookups with the choice of source made once: work that asks
    /// about the same user row after row skips the String-keyed lookups.
    /// Make one only when a lookup follows, since it records the fallback
    /// warning that the first lookup would.
    func resolver(_ user: String) -> Resolver {
        if let rows = history[user], !rows.isEmpty { return Resolver(zones: zones, history: rows, configured: nil) }
        if let zone = configuredZone(user) { return Resolver(zones: zones, history: [], configured: zone) }
        if warnedOffset.insert(user).inserted {
            warn(user, "instant_offset (as written)")
        }
        return Resolver(zones: zones, history: [], configured: nil)
    }

    /// A user's zone source, as `zone(_:at:)` chooses it.
    struct Resolver {
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
