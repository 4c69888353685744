/// The drops of an as-of series' steps, derived from one ingest as of its
/// last step (SPEC §12: the series in one pass over the inputs): each is
/// the drop a plain ingest as of that step would make, field for field that
/// the facts read, without reading a file again.
///
/// A step's drop is the last step's with the as-of-dependent rows decided
/// again (`AsOfCandidates`): events and value entries by their duplicate
/// tests among the rows not after the step, journal entries by their
/// winning revision, health days aggregated again where a sample is after
/// it. Rows whose decision cannot change from the first step on are decided
/// once: a duplicate test only compares rows that share a key, so a group
/// of rows linked by shared ids and retry keys, none of them after the
/// first step, is decided at every step as at the last.
struct AsOfSteps: Sendable {
    /// The last step's drop, without its candidates and its push rows (the
    /// history tables take nothing from push/, SPEC §12), and with a zone
    /// resolver of its own: the drop it comes from is the run's, whose
    /// manifest lists the fallbacks the run's own as-of used, not a step's.
    private let base: IngestedDrop
    private let candidates: AsOfCandidates
    private let events: TaskRowSteps
    private let values: TaskRowSteps
    /// The first step's instant.
    private let from: Instant
    /// How many entry keys the journal revisions use (revisions are decided
    /// again at every step: a pass over them is short).
    private let journalEntries: Int
    /// Each journal revision's local day (its user's zone at its cooked_at),
    /// found once: every step's drop has `base`'s zone resolver, so a
    /// revision's day is the same at every step (finding it again for every
    /// entry was most of a step's journal grouping).
    private let journalDays: [LocalDate]
    /// Health days holding a sample after the first step: (user, day, the
    /// positions of their samples in `candidates.healthSamples`), by user.
    private let lateHealthDays: [(user: String, days: [(day: LocalDate, samples: [Int])])]

    /// `drop` comes from an ingest with `IngestOptions.keepsAsOfCandidates`
    /// as of the series' last step; `from` is its first step.
    init(_ drop: IngestedDrop, from: Instant) {
        var base = drop
        let candidates = drop.asOfCandidates ?? AsOfCandidates()
        base.asOfCandidates = nil
        base.push = nil
        // A step's own, from the candidates (or none: `drop(asOf:taskRows:)`).
        base.events = []
        base.valueEntries = []
        base.userZones = drop.userZones.withOwnRecord()
        self.base = base
        self.candidates = candidates
        self.from = from
        events = TaskRowSteps(candidates.events, from: from)
        values = TaskRowSteps(candidates.values, from: from)
        journalEntries = Int((candidates.journal.map(\.entryKey).max() ?? -1) + 1)
        var resolvers: [Int32: UserZones.Resolver] = [:]
        journalDays = candidates.journal.map { revision in
            let user = revision.entry.userIndex
            let resolver = resolvers[user] ?? base.userZones.resolver(base.journalUsers[Int(user)])
            resolvers[user] = resolver
            return resolver.localDate(revision.entry.cookedAt)
        }
        // Samples of a (user, day) with one after `from`, in their order.
        var late = Set<Int64>()
        func key(_ sample: HealthSampleOnDay) -> Int64 {
            Int64(sample.user) << 32 | Int64(sample.day.days) & 0xFFFF_FFFF
        }
        for sample in candidates.healthSamples where sample.start > from { late.insert(key(sample)) }
        var byUser: [Int32: [Int32: [Int]]] = [:]
        var userOrder: [Int32] = []
        for (position, sample) in candidates.healthSamples.enumerated() where late.contains(key(sample)) {
            if byUser[sample.user] == nil { userOrder.append(sample.user) }
            byUser[sample.user, default: [:]][sample.day.days, default: []].append(position)
        }
        lateHealthDays = userOrder.map { user in
            let days = (byUser[user] ?? [:]).sorted { $0.key < $1.key }.map { (LocalDate(days: $0.key), $0.value) }
            return (candidates.healthUsers[Int(user)], days)
        }
    }

    /// The drop a plain ingest as of `asOf` (not before the first step, not
    /// after the last) makes, in every field the facts read; accounts and
    /// rejects are the last step's.
    ///
    /// `taskRows: false` leaves the drop's events and value entries empty:
    /// the facts read them only for the outcomes and the days of activity,
    /// which a series takes from `StepTaskFacts` instead.
    ///
    /// `journal`: the step's winning revisions (`journalWinners(asOf:)`),
    /// when the caller found them already.
    ///
    /// `healthDays`: the step's health days, when the caller carries them
    /// (`StepHealthDays`).
    func drop(
        asOf: Instant, taskRows: Bool = true, journal: JournalWinners? = nil,
        healthDays: [String: [LocalDate: HealthDay]]? = nil
    ) -> IngestedDrop {
        var drop = base
        drop.eventIDs = candidates.eventIDs
        drop.journal = (journal ?? journalWinners(asOf: asOf)).kept.map { candidates.journal[$0].entry }
        drop.healthDays = healthDays ?? self.healthDays(asOf: asOf)
        guard taskRows else { return drop }
        var stepEvents = candidates.logEvents.filter { $0.occurredAt <= asOf }
        let accepted = events.accepted(candidates.events, asOf: asOf)
        stepEvents.reserveCapacity(stepEvents.count + accepted.count)
        for position in accepted { stepEvents.append(candidates.events.rows[position]) }
        drop.events = stepEvents
        drop.valueEntries = values.accepted(candidates.values, asOf: asOf).map { candidates.values.rows[$0] }
        return drop
    }

    /// The health days of the steps from `from` on, carried from one step
    /// to the next.
    func healthDaySteps() -> StepHealthDays {
        StepHealthDays(lastDays: base.healthDays, samples: candidates.healthSamples, lateDays: lateHealthDays)
    }

    /// The outcomes and days of activity of the steps from `from` on,
    /// carried from one step to the next.
    func taskFacts() -> StepTaskFacts {
        StepTaskFacts(base, candidates: candidates, events: events, values: values, from: from)
    }

    /// Per user, the local days whose client-table figures (journal sums,
    /// health aggregates) a step as of `asOf` may hold otherwise than one as
    /// of `previous`: the days of the entries whose winning revision
    /// changed (the old winner's day and the new one's, deletions aside),
    /// and the health days with a sample in (previous, asOf]. Nil when
    /// `asOf` is before `previous` (the steps are carried forward only).
    func changedClientDays(from previous: Instant, to asOf: Instant) -> [String: Set<LocalDate>]? {
        changedClientDays(from: journalWinners(asOf: previous), to: journalWinners(asOf: asOf))
    }

    /// `changedClientDays(from:to:)` between two steps whose winning
    /// revisions were found already (each step's are the next one's before).
    func changedClientDays(from previous: JournalWinners, to now: JournalWinners) -> [String: Set<LocalDate>]? {
        guard now.asOf >= previous.asOf else { return nil }
        var changed: [String: Set<LocalDate>] = [:]
        guard now.asOf > previous.asOf else { return changed }
        let revisions = candidates.journal
        let (before, after) = (previous.winner, now.winner)
        for key in after.indices where after[key] != before[key] {
            for position in [before[key], after[key]] where position >= 0 && !revisions[position].deleted {
                let user = base.journalUsers[Int(revisions[position].entry.userIndex)]
                changed[user, default: []].insert(journalDays[position])
            }
        }
        let samples = candidates.healthSamples
        for (user, days) in lateHealthDays {
            for (day, positions) in days
            where positions.contains(where: { samples[$0].start > previous.asOf && samples[$0].start <= now.asOf }) {
                changed[user, default: []].insert(day)
            }
        }
        return changed
    }

    /// The local day of each entry of the journal of `drop(asOf:)`, in its
    /// order (what `ClientDayBuilder.journalByUser` would find for them).
    func journalDays(asOf: Instant) -> [LocalDate] {
        journalDays(journalWinners(asOf: asOf))
    }

    /// `journalDays(asOf:)` of a step whose winning revisions were found already.
    func journalDays(_ winners: JournalWinners) -> [LocalDate] {
        winners.kept.map { journalDays[$0] }
    }

    /// The journal revisions that win as of one step. A step's drop, its
    /// entries' days and the next step's changed days all read them, so a
    /// series finds them once per step (it found them four times: a pass
    /// over every revision each).
    struct JournalWinners: Sendable {
        let asOf: Instant
        /// Per entry key, the position of its winning revision (-1: none).
        let winner: [Int]
        /// The positions in the candidates' revisions of the entries the
        /// step's journal keeps (the winners, without deletions), in file order.
        let kept: [Int]
    }

    /// The winning revisions (highest, ties to the last in file order) of
    /// the revisions not after `asOf`; the journal keeps them without deletions.
    func journalWinners(asOf: Instant) -> JournalWinners {
        let revisions = candidates.journal
        let winner = JournalRevision.winners(revisions, entries: journalEntries, asOf: asOf)
        let kept = revisions.indices.filter {
            winner[Int(revisions[$0].entryKey)] == $0 && !revisions[$0].deleted
        }
        return JournalWinners(asOf: asOf, winner: winner, kept: kept)
    }

    /// The last step's health days with each day that has a sample after
    /// the first step aggregated again from its samples not after `asOf`
    /// (a day left without samples is gone, and so is a user left without
    /// days): a `StepHealthDays` taken to `asOf` in one step.
    private func healthDays(asOf: Instant) -> [String: [LocalDate: HealthDay]] {
        var steps = healthDaySteps()
        return steps.advance(to: asOf)
    }
}

/// Which events (or value entries) a step accepts: those whose duplicate
/// test cannot change from the first step on are decided once; the rest are
/// tested again at each step, in file order, among the rows not after it.
struct TaskRowSteps: Sendable {
    private enum Fate: UInt8 {
        case accepted, duplicate, perStep
    }

    private let fates: [Fate]
    /// The positions of the rows tested again at each step, in file order.
    let perStepPositions: [Int32]
    /// The per-step rows' groups (rows linked by a shared id or retry key),
    /// as indexes into `perStepPositions`: a group's decisions read only its
    /// own rows (`TaskRowDecisions`).
    let perStepGroups: TaskIndexGroups
    /// Each per-step row's group (a group's number in `perStepGroups`).
    let perStepGroupOf: [Int32]
    /// The first step: no step is before it, so no row up to it comes or goes.
    let from: Instant
    /// The per-step rows after the first step (the only ones a step can
    /// add or take away), by instant: indexes into `perStepPositions`.
    private let lateByInstant: [Int32]
    private let lateInstants: [Instant]

    init<Row>(_ rows: TaskRowCandidates<Row>, from: Instant) {
        let count = rows.count
        // Rows linked by a shared id or retry key (union-find over positions).
        var parent = [Int32](0..<Int32(count))
        func root(_ position: Int32) -> Int32 {
            var position = position
            while parent[Int(position)] != position {
                parent[Int(position)] = parent[Int(parent[Int(position)])]
                position = parent[Int(position)]
            }
            return position
        }
        func link(_ a: Int32, _ b: Int32) {
            let (ra, rb) = (root(a), root(b))
            if ra != rb { parent[Int(max(ra, rb))] = min(ra, rb) }
        }
        var firstWithID = FingerprintMap()
        var firstWithRetry = FingerprintMap()
        firstWithID.reserve(count)
        firstWithRetry.reserve(count)
        for position in 0..<count {
            let here = Int32(position)
            if let first = firstWithID[rows.idKeys[position]] {
                link(first, here)
            } else {
                firstWithID[rows.idKeys[position]] = here
            }
            if let retry = rows.retryKeys[position] {
                if let first = firstWithRetry[retry] {
                    link(first, here)
                } else {
                    firstWithRetry[retry] = here
                }
            }
        }
        // A group with a row after the first step is tested again at each step.
        var lateGroup = [Bool](repeating: false, count: count)
        for position in 0..<count where rows.instants[position] > from {
            lateGroup[Int(root(Int32(position)))] = true
        }
        // The others as at the last step, where every row of theirs is in.
        var dedup = TaskRowDeduplicator()
        var fates: [Fate] = []
        fates.reserveCapacity(count)
        var perStep: [Int32] = []
        // Each per-step row's group, numbered densely in order of first row.
        var groupNumber = [Int32](repeating: -1, count: count)
        var groupOf: [Int] = []
        var groupCount = 0
        for position in 0..<count {
            let group = Int(root(Int32(position)))
            if lateGroup[group] {
                fates.append(.perStep)
                perStep.append(Int32(position))
                if groupNumber[group] < 0 {
                    groupNumber[group] = Int32(groupCount)
                    groupCount += 1
                }
                groupOf.append(Int(groupNumber[group]))
            } else {
                let first = dedup.claim(idKey: rows.idKeys[position], retryKey: rows.retryKeys[position])
                fates.append(first ? .accepted : .duplicate)
            }
        }
        self.fates = fates
        perStepPositions = perStep
        perStepGroups = TaskIndexGroups(taskCount: groupCount, groupOf)
        perStepGroupOf = groupOf.map { Int32($0) }
        self.from = from
        let late = perStep.indices.filter { rows.instants[Int(perStep[$0])] > from }.sorted {
            (rows.instants[Int(perStep[$0])], $0) < (rows.instants[Int(perStep[$1])], $1)
        }
        lateByInstant = late.map { Int32($0) }
        lateInstants = late.map { rows.instants[Int(perStep[$0])] }
    }

    /// The per-step rows whose instant lies in `(after, upTo]` (indexes into
    /// `perStepPositions`): the rows a step as of `upTo` holds and one as of
    /// `after` does not.
    func perStepRows(between after: Instant, and upTo: Instant) -> ArraySlice<Int32> {
        lateByInstant[lateInstants.countNotAfter(after)..<lateInstants.countNotAfter(upTo)]
    }

    /// Whether every step accepts the row at `position` (its group has no
    /// row after the first step, and it won its duplicate test).
    func alwaysAccepted(_ position: Int) -> Bool { fates[position] == .accepted }

    /// Whether some step may accept the row at `position` (not a duplicate
    /// decided once).
    func everAccepted(_ position: Int) -> Bool { fates[position] != .duplicate }

    /// For each of `perStepPositions`, whether a step as of `asOf` accepts
    /// it: its duplicate test among the per-step rows not after `asOf`, in
    /// file order (a decided group shares no id or retry key with them).
    func perStepAccepted<Row>(_ rows: TaskRowCandidates<Row>, asOf: Instant) -> [Bool] {
        var dedup = TaskRowDeduplicator()
        dedup.reserve(perStepPositions.count)
        return perStepPositions.map {
            let position = Int($0)
            return rows.instants[position] <= asOf
                && dedup.claim(idKey: rows.idKeys[position], retryKey: rows.retryKeys[position])
        }
    }

    /// The positions of the rows accepted as of `asOf`, in file order.
    func accepted<Row>(_ rows: TaskRowCandidates<Row>, asOf: Instant) -> [Int] {
        let decided = perStepAccepted(rows, asOf: asOf)
        var next = 0
        var accepted: [Int] = []
        accepted.reserveCapacity(fates.count)
        for position in fates.indices {
            switch fates[position] {
            case .accepted: accepted.append(position)
            case .duplicate: continue
            case .perStep:
                if decided[next] { accepted.append(position) }
                next += 1
            }
        }
        return accepted
    }
}
