/// One row of the client day table (SPEC §6). A metric is nil (NULL) on a
/// day when no record gave it a value; a logged 0 stays 0.
public struct ClientDay: Sendable {
    public var date: LocalDate
    /// The day's zone (`ZoneCatalog.name(of:)` names it): an id, not its
    /// name, so a day is plain data and the copies an as-of series makes of
    /// its tables retain nothing.
    public var zone: ZoneID
    public var journalEntries = 0
    /// energy_kcal, protein_g, carbs_g, fat_g from the journal.
    public var journal = Nutrients()
    public var healthRecords = 0
    /// Every metric's value from health imports (`HealthMetric.registry`).
    public var health = MetricValues()

    /// The dietary values Progress uses on this day (SPEC §10): each
    /// nutrient on its own from `requested` when that source has a value,
    /// else from the other source, else nil; `source` is where energy_kcal
    /// came from (nil when neither source has it). A day-level choice:
    /// Progress's window-level choice of one source is a separate rule.
    public func dietary(preferring requested: ProgressSource) -> (values: Nutrients, source: ProgressSource?) {
        var values = Nutrients()
        var source: ProgressSource?
        for (nutrient, metric) in Metric.dietary.enumerated() {
            let (fromJournal, fromHealth) = (journal[nutrient], health[metric])
            let (first, second) = requested == .journal ? (fromJournal, fromHealth) : (fromHealth, fromJournal)
            values[nutrient] = first ?? second
            if metric == .energyKcal { source = first != nil ? requested : second != nil ? requested.other : nil }
        }
        return (values, source)
    }
}

/// A user's client day table plus the facts Progress needs about them.
public struct ClientTable: Sendable {
    public var user: String
    public var today: LocalDate
    public var days: [ClientDay]
    /// The user's requested source for the dietary metrics (preferences.csv
    /// `progress_source`, LOCAL_JOURNAL by default), taken once per user.
    public var requestedDietarySource: ProgressSource

    /// Where Progress asks for `metric` first: the user's dietary source
    /// for a dietary metric, Apple Health for the others (SPEC §6).
    func requestedSource(for metric: Metric) -> ProgressSource {
        metric.isDietary ? requestedDietarySource : .health
    }

    /// The value of a metric on a date from one source (nil from the journal
    /// for a metric the journal does not give).
    func value(_ metric: Metric, _ source: ProgressSource, _ date: LocalDate) -> Double? {
        var found: Double?
        forEachValue(metric, source, from: date, through: date) { found = $1 }
        return found
    }

    /// Calls `body` with each value of a metric from one source on the days
    /// `from`…`through` the table holds, and its date, in date order (the order Progress
    /// sums them in). The days are read in place: copying each `ClientDay`
    /// out (a String to retain and release) was most of Progress's time.
    func forEachValue(
        _ metric: Metric, _ source: ProgressSource, from: LocalDate, through: LocalDate,
        _ body: (LocalDate, Double) -> Void
    ) {
        guard let first = days.first?.date, from <= through else { return }
        let lower = Swift.max(0, Int(from.days - first.days))
        let upper = Swift.min(days.count, Int(through.days - first.days) + 1)
        guard lower < upper else { return }
        if source == .journal {
            guard let nutrient = metric.journalIndex else { return }
            for index in lower..<upper {
                if let value = days[index].journal[nutrient] { body(days[index].date, value) }
            }
        } else {
            for index in lower..<upper { if let value = days[index].health[metric] { body(days[index].date, value) } }
        }
    }
}

public enum ClientDayBuilder {
    /// The earlier of two dates, either of which may be missing.
    private static func min(_ a: LocalDate?, _ b: LocalDate?) -> LocalDate? {
        guard let a else { return b }
        guard let b else { return a }
        return Swift.min(a, b)
    }

    /// Users with Progress rows (SPEC §9), sorted by bytes: relationships'
    /// clients and users with journal entries (`journalByUser`'s keys),
    /// health days or failed imports.
    static func users(_ drop: IngestedDrop, journalByUser: [String: [(date: LocalDate, entry: Int)]]) -> [String] {
        var users = Set(drop.relationships.map(\.clientUserID))
        users.formUnion(journalByUser.keys)
        users.formUnion(drop.healthDays.keys)
        users.formUnion(drop.failedImports)
        return users.sorted(by: bytesLess)
    }

    /// Journal entries by user, in journal order, each with its local day
    /// and its position in `drop.journal`. Entries are grouped by their
    /// user's index first (no String hashed per entry), then each user's
    /// days are found with its zone source taken once into a local (read
    /// through an array of sources, it was retained and released for every
    /// entry of every as-of step). An as-of series gives each entry's day,
    /// `days` (`AsOfSteps.journalDays`): its steps share one zone resolver,
    /// so the days are found once for all of them.
    static func journalByUser(
        _ drop: IngestedDrop, days: [LocalDate]? = nil
    ) -> [String: [(date: LocalDate, entry: Int)]] {
        precondition(days.map { $0.count == drop.journal.count } ?? true, "a day for each journal entry")
        var slotOfIndex: [Int] = []
        var userOfSlot: [Int] = []
        var positions: [[Int]] = []
        for position in drop.journal.indices {
            let index = Int(drop.journal[position].userIndex)
            if index >= slotOfIndex.count {
                slotOfIndex.append(contentsOf: repeatElement(-1, count: index + 1 - slotOfIndex.count))
            }
            var slot = slotOfIndex[index]
            if slot < 0 {
                slot = positions.count
                slotOfIndex[index] = slot
                userOfSlot.append(index)
                positions.append([])
            }
            positions[slot].append(position)
        }
        var byUser: [String: [(date: LocalDate, entry: Int)]] = [:]
        byUser.reserveCapacity(positions.count)
        for (slot, entries) in positions.enumerated() {
            let user = drop.journalUsers[userOfSlot[slot]]
            if let days {
                byUser[user] = entries.map { (days[$0], $0) }
                continue
            }
            let resolver = drop.userZones.resolver(user)
            byUser[user] = entries.map { (resolver.localDate(drop.journal[$0].cookedAt), $0) }
        }
        return byUser
    }

    public static func build(_ drop: IngestedDrop, asOf: ParsedInstant, owned: Set<String>? = nil) -> [ClientTable] {
        build(drop, asOf: asOf, owned: owned, journalByUser: journalByUser(drop))
    }

    /// The tables of `owned` users (nil: all), from `journalByUser(drop)`.
    static func build(
        _ drop: IngestedDrop, asOf: ParsedInstant, owned: Set<String>?,
        journalByUser: [String: [(date: LocalDate, entry: Int)]]
    ) -> [ClientTable] {
        users(drop, journalByUser: journalByUser).compactMap { user in
            guard owned?.contains(user) ?? true else { return nil }
            return table(
                drop, user: user, today: today(drop, user: user, asOf: asOf),
                requested: ProgressCalculator.requestedSource(drop, user, .energyKcal),
                journal: journalByUser[user] ?? [])
        }
    }

    /// The local date of the as-of in the user's zone then.
    static func today(_ drop: IngestedDrop, user: String, asOf: ParsedInstant) -> LocalDate {
        let zones = drop.userZones
        return zones.zones.localDate(zones.zone(user, at: asOf), asOf.instant)
    }

    /// The first day of a user's table: its earliest journal or health day
    /// (nil: it has neither).
    static func firstDay(_ drop: IngestedDrop, user: String, journal: [(date: LocalDate, entry: Int)]) -> LocalDate? {
        min(journal.lazy.map(\.date).min(), drop.healthDays[user]?.keys.min())
    }

    /// A user's table, from its first day through `today` (no days when it
    /// has no data by then).
    static func table(
        _ drop: IngestedDrop, user: String, today: LocalDate, requested: ProgressSource,
        journal: [(date: LocalDate, entry: Int)]
    ) -> ClientTable {
        var table = ClientTable(user: user, today: today, days: [], requestedDietarySource: requested)
        guard let first = firstDay(drop, user: user, journal: journal), first <= today else { return table }
        table.days.reserveCapacity(Int(today.days - first.days) + 1)
        appendDays(drop, user: user, through: today, to: &table.days, from: first)
        fill(&table.days, drop, user: user, journal: journal)
        return table
    }

    /// Appends empty days (each with its zone's name) after the last of
    /// `days` (or from `from` when there are none) through `end`.
    static func appendDays(
        _ drop: IngestedDrop, user: String, through end: LocalDate, to days: inout [ClientDay], from: LocalDate
    ) {
        let start = days.last.map { $0.date.adding(days: 1) } ?? from
        guard start <= end else { return }
        let schedule = drop.userZones.schedule(user)
        for offset in 0...Int(end.days - start.days) {
            let date = start.adding(days: offset)
            days.append(ClientDay(date: date, zone: schedule.zone(on: date)))
        }
    }

    /// Sets the journal and health figures of `days` (all, or those in
    /// `only`) from the user's entries and health days. The days filled are
    /// emptied first; a day's nutrients are summed in journal order, as a
    /// whole build sums them, so that a day filled again has the same bits.
    static func fill(
        _ days: inout [ClientDay], _ drop: IngestedDrop, user: String, journal: [(date: LocalDate, entry: Int)],
        only: Set<LocalDate>? = nil
    ) {
        guard let first = days.first?.date else { return }
        // A series step fills a few days at the end of a long journal: an
        // entry outside their span is passed over without hashing its date.
        let span = only.flatMap { dates in dates.min().map { $0...(dates.max() ?? $0) } }
        func slot(_ date: LocalDate) -> Int? {
            let offset = Int(date.days - first.days)
            guard offset >= 0 && offset < days.count else { return nil }
            guard let only else { return offset }
            guard let span, span.contains(date) else { return nil }
            return only.contains(date) ? offset : nil
        }
        if let only {
            for date in only {
                guard let position = slot(date) else { continue }
                days[position] = ClientDay(date: date, zone: days[position].zone)
            }
        }
        for (date, entry) in journal {
            guard let position = slot(date) else { continue }
            days[position].journalEntries += 1
            for nutrient in 0..<4 {
                if let perServing = drop.journal[entry].nutrient(nutrient) {
                    days[position].journal[nutrient] =
                        (days[position].journal[nutrient] ?? 0) + perServing * drop.journal[entry].portion
                }
            }
        }
        let health = drop.healthDays[user] ?? [:]
        if let only {
            for date in only {
                guard let position = slot(date), let aggregate = health[date] else { continue }
                days[position].healthRecords = aggregate.records
                days[position].health = aggregate.values
            }
        } else {
            for (date, aggregate) in health {
                guard let position = slot(date) else { continue }
                days[position].healthRecords = aggregate.records
                days[position].health = aggregate.values
            }
        }
    }
}
