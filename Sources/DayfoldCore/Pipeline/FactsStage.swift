/// The compute stage: pure functions from the ingested drop to every fact table.
public enum FactsStage {
    /// `owned`: in a partitioned run, the users whose relationships and
    /// Progress this partition computes (nil: everyone).
    /// The client side's facts: day tables and Progress ranges.
    public struct ClientSide: Sendable {
        var tables: [ClientTable]
        var progress: [ProgressRange]
    }

    /// Computes the client side from a drop holding at least the subjects,
    /// journal, health days, failed imports and users' zones (what
    /// `IngestOptions.clientInputs` hands over). It shares the zone
    /// resolver with the task side: the fallbacks either side uses are
    /// recorded in the same place.
    public static func clientSide(
        _ drop: IngestedDrop, config: PipelineConfig, asOf: ParsedInstant, owned: Set<String>? = nil
    ) -> ClientSide {
        let tables = ClientDayBuilder.build(drop, asOf: asOf, owned: owned)
        let progress = ProgressCalculator.ranges(drop, tables: tables, options: progressOptions(drop, config))
        return ClientSide(tables: tables, progress: progress)
    }

    static func progressOptions(_ drop: IngestedDrop, _ config: PipelineConfig) -> ProgressOptions {
        ProgressOptions(windows: config.progressWindows, defaultTargets: config.defaultTargets, goals: drop.goals)
    }

    /// Every fact table, one after the other where a whole run's plan
    /// overlaps them (the outcomes, then the rest; the client side beside).
    public static func compute(
        _ drop: IngestedDrop, config: PipelineConfig, asOf: ParsedInstant, owned: Set<String>? = nil
    ) -> RunResult {
        let outcomes = TaskOutcomeCalculator.outcomes(drop, asOf: asOf.instant)
        return facts(drop, outcomes: outcomes, config: config, asOf: asOf, owned: owned)
    }

    /// The facts computed from the task outcomes: relationship days,
    /// streaks, risk signals and push facts, with the client side and the
    /// days of activity. `days` are the relationship day tables when a
    /// series step carries them (`StepRelationshipDays`). `client` and `activity` are given when a plan
    /// computed them already (the client side alongside the reading of
    /// status events it does not need, activity beside the outcomes); nil
    /// computes them here, beside the task side. `progressOptions`: the
    /// drop's, when a series made them once for all its steps.
    /// `withSignals` false leaves `signals` empty, for a caller that
    /// computes them apart (`computeSignals`) beside other work.
    static func facts(
        _ drop: IngestedDrop, outcomes: [TaskOutcome], client: ClientSide? = nil, activity: ActivityDays? = nil,
        days: [[RelationshipDay]]? = nil, config: PipelineConfig, asOf: ParsedInstant,
        owned: Set<String>? = nil, progressOptions known: ProgressOptions? = nil, withSignals: Bool = true
    ) -> RunResult {
        let today = today(drop, asOf: asOf)
        let progressOptions = known ?? progressOptions(drop, config)
        // The client side (day tables, Progress) and activity days run
        // alongside the task side. They share the drop (read only) and its
        // zone resolver (whose record of fallbacks is locked). Activity days
        // read every event again.
        let computing =
            client == nil
            ? BackgroundValue { FactsStage.clientSide(drop, config: config, asOf: asOf, owned: owned) } : nil
        let activitySide = activity == nil ? BackgroundValue { activityDays(drop) } : nil
        // The push facts need the outcomes and nothing computed after them.
        let pushSide = drop.push.map { push in
            BackgroundValue { PushSummaries.facts(drop, push, outcomes: outcomes, today: today, asOf: asOf.instant) }
        }
        // Only the owned relationships' day tables: a partition holds every
        // relationship of the subjects, and building the others' tables (from
        // their start to today) made each partition grow with the whole drop.
        let days =
            days
            ?? RelationshipDayBuilder.build(
                drop, outcomes: outcomes, today: today, streakThreshold: config.streakThreshold, owned: owned)
        let streaks = drop.relationships.indices.compactMap {
            StreakCalculator.summary(days[$0], relationship: $0, today: today[$0])
        }
        let client = client ?? computing?.value() ?? clientSide(drop, config: config, asOf: asOf, owned: owned)
        let (clientTables, progress) = (client.tables, client.progress)
        let activity = activity ?? activitySide?.value() ?? activityDays(drop)
        let signals =
            withSignals
            ? computeSignals(
                drop, outcomes: outcomes, days: days, today: today, tables: clientTables, activity: activity,
                options: progressOptions) : []
        var result = RunResult(
            drop: drop, asOf: asOf, outcomes: outcomes, relationshipDays: days, today: today, streaks: streaks,
            signals: signals, clientTables: clientTables, progress: progress)
        result.owned = owned
        result.push = pushSide?.value()
        return result
    }

    /// Each relationship's today: the local date of the as-of in its client's zone then.
    static func today(_ drop: IngestedDrop, asOf: ParsedInstant) -> [LocalDate] {
        let zones = drop.userZones
        return drop.relationships.map { zones.zones.localDate(zones.zone($0.clientUserID, at: asOf), asOf.instant) }
    }

    /// Local days with activity: per relationship (completions, skips,
    /// starts, accepted values) and per user (journal entries).
    struct ActivityDays: Sendable {
        var byRelationship: [Set<LocalDate>]
        var journalByUser: [String: Set<LocalDate>]
    }

    static func activityDays(_ drop: IngestedDrop) -> ActivityDays {
        ActivityDays(byRelationship: relationshipActivity(drop), journalByUser: journalActivity(drop))
    }

    /// Whether an event to `status` is activity on its day (a completion, a skip or a start).
    static func countsAsActivity(_ status: TaskStatus) -> Bool {
        status == .completed || status == .skipped || status == .inProgress
    }

    /// The days with journal entries, per user.
    static func journalActivity(_ drop: IngestedDrop) -> [String: Set<LocalDate>] {
        journalActivity(ClientDayBuilder.journalByUser(drop))
    }

    /// The days with journal entries, per user, from `ClientDayBuilder.journalByUser`.
    static func journalActivity(_ journalByUser: [String: [(date: LocalDate, entry: Int)]]) -> [String: Set<LocalDate>]
    {
        journalByUser.mapValues { distinct($0.map(\.date.days)) }
    }

    /// The days with completions, skips, starts or accepted values, per relationship.
    static func relationshipActivity(_ drop: IngestedDrop) -> [Set<LocalDate>] {
        let count = drop.relationships.count
        // The rows with activity, grouped by relationship (a counting sort
        // of their positions), so that each relationship's zone source is
        // taken once and held in a local: looked up in an array per row, it
        // was copied with its references retained and released every time.
        // Positions from `events.count` on are value entries'.
        let eventCount = drop.events.count
        func relationship(ofRow row: Int) -> Int? {
            if row < eventCount {
                guard countsAsActivity(drop.events[row].toStatus) else { return nil }
                return drop.tasks[drop.events[row].task].relationship
            }
            let entry = row - eventCount
            return drop.valueEntries[entry].accepted ? drop.tasks[drop.valueEntries[entry].task].relationship : nil
        }
        let rows = eventCount + drop.valueEntries.count
        var starts = [Int](repeating: 0, count: count + 1)
        var owner = [Int32](repeating: -1, count: rows)
        for row in 0..<rows {
            guard let relationship = relationship(ofRow: row) else { continue }
            owner[row] = Int32(relationship)
            starts[relationship + 1] += 1
        }
        for index in 0..<count { starts[index + 1] += starts[index] }
        var next = starts
        var grouped = [Int32](repeating: 0, count: starts[count])
        for row in 0..<rows where owner[row] >= 0 {
            let relationship = Int(owner[row])
            grouped[next[relationship]] = Int32(row)
            next[relationship] += 1
        }
        owner = []
        // Days are gathered as numbers and deduplicated by sorting: a client
        // has a few hundred active days, but millions of events point at them.
        let zones = drop.userZones
        var byRelationship = [Set<LocalDate>](repeating: [], count: count)
        var days: [Int32] = []
        for relationship in 0..<count where starts[relationship] < starts[relationship + 1] {
            let resolver = zones.resolver(drop.relationships[relationship].clientUserID)
            days.removeAll(keepingCapacity: true)
            for position in starts[relationship]..<starts[relationship + 1] {
                let row = Int(grouped[position])
                let instant =
                    row < eventCount
                    ? ParsedInstant(instant: drop.events[row].occurredAt, offsetSeconds: drop.events[row].offsetSeconds)
                    : ParsedInstant(
                        instant: drop.valueEntries[row - eventCount].recordedAt,
                        offsetSeconds: drop.valueEntries[row - eventCount].offsetSeconds)
                days.append(resolver.localDate(instant).days)
            }
            byRelationship[relationship] = distinct(days)
        }
        return byRelationship
    }

    /// The distinct days among `days` (numbers of days since 1970-01-01).
    private static func distinct(_ days: [Int32]) -> Set<LocalDate> {
        var set = Set<LocalDate>(minimumCapacity: days.count)
        var last: Int32?
        for day in days.sorted() where day != last {
            set.insert(LocalDate(days: day))
            last = day
        }
        return set
    }

    static func computeSignals(
        _ drop: IngestedDrop, outcomes: [TaskOutcome], days: [[RelationshipDay]], today: [LocalDate],
        tables: [ClientTable], activity: ActivityDays, options: ProgressOptions
    ) -> [RiskSignal] {
        computeSignals(
            drop, outcomes: outcomes, days: days, today: today,
            intakes: intakeChecks(drop, tables: tables, today: today, options: options), activity: activity)
    }

    /// Per relationship, the intake over its last seven closed days (nil
    /// when its client has no day table; none for an ENDED relationship):
    /// the only figures the signals take from the client tables, so a series
    /// step finds them beside its client tables and lets go of those.
    static func intakeChecks(
        _ drop: IngestedDrop, tables: [ClientTable], today: [LocalDate], options: ProgressOptions
    ) -> [IntakeCheck?] {
        var tableByUser: [String: ClientTable] = [:]
        for table in tables { tableByUser[table.user] = table }
        var labels = ProgressCalculator.CoverageLabels()
        return drop.relationships.indices.map { index in
            let relationship = drop.relationships[index]
            guard relationship.effectiveStatus != "ENDED", let table = tableByUser[relationship.clientUserID] else {
                return nil
            }
            let from = today[index].adding(days: -7)
            let to = today[index].adding(days: -1)
            let range = ProgressCalculator.range(
                drop, table, .energyKcal, from: from, to: to, options: options, labels: &labels)
            return IntakeCheck(
                from: from, to: to, daysWithData: range.daysWithData, average: range.average, target: range.target,
                confirmed: range.targetProvenance == "CONFIRMED", source: range.source)
        }
    }

    /// The risk signals from the outcomes, day tables, activity and
    /// `intakes` (`intakeChecks`). `readingOnly`: the tasks a rule may read,
    /// per relationship (each outcome at its task's index), when a series
    /// found them once for all its steps; nil passes over every outcome.
    static func computeSignals(
        _ drop: IngestedDrop, outcomes: [TaskOutcome], days: [[RelationshipDay]], today: [LocalDate],
        intakes: [IntakeCheck?], activity: ActivityDays, readingOnly: SignalTasks? = nil
    ) -> [RiskSignal] {
        let count = drop.relationships.count
        var checkIns = [[(LocalDate, Int, OutcomeKind)]](repeating: [], count: count)
        var skips = [[(LocalDate, Int, String?)]](repeating: [], count: count)
        let checkIn = drop.checkInKind ?? -1
        func read(_ index: Int) {
            guard let kind = outcomes[index].kind else { return }
            let task = drop.tasks[outcomes[index].task]
            if task.kind == checkIn && kind.isScored {
                checkIns[task.relationship].append((task.localDate, outcomes[index].task, kind))
            }
            if kind == .skipped {
                skips[task.relationship].append(
                    (task.localDate, outcomes[index].task, drop.eventReason(outcomes[index].skipReason)))
            }
        }
        if readingOnly == nil {
            for index in outcomes.indices { read(index) }
        }
        let (tasks, taskIDs) = (drop.tasks, drop.taskIDs)
        let taskID = { (task: Int) in String(decoding: taskIDs[tasks[task].id], as: UTF8.self) }
        var signals: [RiskSignal] = []
        for (index, relationship) in drop.relationships.enumerated() where relationship.effectiveStatus != "ENDED" {
            let user = relationship.clientUserID
            let input = SignalInputs(
                relationship: index, today: today[index], days: days[index],
                checkIns: readingOnly?.checkIns(index, today: today[index], outcomes: outcomes, drop: drop)
                    ?? checkIns[index],
                skips: readingOnly?.skips(index, today: today[index], outcomes: outcomes, drop: drop) ?? skips[index],
                taskID: taskID,
                activeDays: activity.byRelationship[index], moreActiveDays: activity.journalByUser[user] ?? [],
                intake: intakes[index])
            signals += RiskSignalCalculator.signals(input)
        }
        return signals
    }
}
