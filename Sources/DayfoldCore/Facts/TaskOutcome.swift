/// The outcome of one task as of T (SPEC §3), in rule order.
public enum OutcomeKind: String, Sendable {
    case completed = "COMPLETED"
    case skipped = "SKIPPED"
    case excluded = "EXCLUDED"
    case missed = "MISSED"
    case open = "OPEN"

    /// COMPLETED, SKIPPED or MISSED: an outcome adherence scores (SPEC §3),
    /// the ones MISSED_CHECK_INS walks and adherence events are written for.
    public var isScored: Bool { self == .completed || self == .skipped || self == .missed }
}

public struct TaskOutcome: Sendable {
    // The fields in this order make an outcome 40 bytes instead of 48 (the
    // one-byte fields packed after the optional instant): a series step
    // copies and reads a million of them several times.
    public var task: Int
    public var deadline: Instant
    public var occurredAt: Instant?
    /// nil for informational reminders: they have no outcome.
    public var kind: OutcomeKind?
    public var late = false
    public var supersededVersion = false
    /// The skip's reason: an index in `IngestedDrop.eventReasons`, so that
    /// an outcome is plain data (copying the outcomes retains nothing).
    public var skipReason: Int32?
    /// For informational reminders: whether it counts in `info_cards`.
    public var countsAsInfoCard = false
}

/// Groups row indexes by task in one flat array (offsets per task), so
/// millions of tasks cost no array each.
struct TaskIndexGroups {
    private(set) var offsets: [Int]
    private(set) var members: [Int]

    init(taskCount: Int, _ taskOf: [Int]) {
        var counts = [Int](repeating: 0, count: taskCount + 1)
        for task in taskOf { counts[task + 1] += 1 }
        for index in 0..<taskCount { counts[index + 1] += counts[index] }
        offsets = counts
        var next = counts
        members = [Int](repeating: 0, count: taskOf.count)
        for (row, task) in taskOf.enumerated() {
            members[next[task]] = row
            next[task] += 1
        }
    }

    func range(_ task: Int) -> Range<Int> { offsets[task]..<offsets[task + 1] }
}

/// Computes every task's outcome from its accepted events and value entries.
public enum TaskOutcomeCalculator {
    public static func outcomes(_ drop: IngestedDrop, asOf: Instant) -> [TaskOutcome] {
        let events = drop.events
        let eventGroups = TaskIndexGroups(taskCount: drop.tasks.count, events.map(\.task))
        let acceptedEntries = drop.valueEntries.indices.filter { drop.valueEntries[$0].accepted }
        let entryGroups = TaskIndexGroups(
            taskCount: drop.tasks.count, acceptedEntries.map { drop.valueEntries[$0].task })
        // Bound once: a closure reading `drop` per task copied all of it.
        let (zones, eventIDs, entries) = (drop.zones, drop.eventIDs, drop.valueEntries)
        var results: [TaskOutcome] = []
        results.reserveCapacity(drop.tasks.count)
        var deadlines = Deadlines(zones)
        for (index, task) in drop.tasks.enumerated() {
            var rules = TaskOutcomeRules(task, deadline: deadlines.of(task))
            for position in eventGroups.range(index) {
                rules.add(events[eventGroups.members[position]], eventIDs: eventIDs)
            }
            let entered =
                rules.asksForEntries(asOf: asOf, zones: zones)
                && entryGroups.range(index).contains {
                    rules.isOnTaskDay(entries[acceptedEntries[entryGroups.members[$0]]].recordedAt, zones: zones)
                }
            results.append(rules.outcome(of: index, asOf: asOf, zones: zones, enteredOnTaskDay: entered))
        }
        return results
    }

    /// Tasks' deadlines (SPEC §3: the start of the second local day after
    /// the task's). A day's tasks sit together in the exports: their shared
    /// deadline is worked out once (four zone-offset searches each time).
    struct Deadlines {
        let zones: ZoneCatalog
        private var last: (zone: ZoneID, day: Int32, deadline: Instant)?

        init(_ zones: ZoneCatalog) { self.zones = zones }

        mutating func of(_ task: DailyTask) -> Instant {
            if let last, last.zone == task.zone, last.day == task.localDate.days { return last.deadline }
            let deadline = zones.startOfDay(task.zone, task.localDate.adding(days: 2))
            last = (task.zone, task.localDate.days, deadline)
            return deadline
        }
    }
}

/// The rules of SPEC §3 for one task, in rule order: its accepted events
/// are added in the drop's order, then `outcome` decides. The one statement
/// of the rules: a whole run and a series step that computes only some
/// tasks again (`StepTaskFacts`) both use it.
struct TaskOutcomeRules {
    let task: DailyTask
    let deadline: Instant
    private var latest: StatusEvent?
    private var firstCompletion: StatusEvent?
    private var lastSkip: StatusEvent?
    private var superseded: Bool
    private var lateCompletion = false

    init(_ task: DailyTask, deadline: Instant) {
        self.task = task
        self.deadline = deadline
        superseded = task.status == .superseded
    }

    /// (occurred_at, id) order: ids break ties, compared as bytes.
    private static func before(_ left: StatusEvent, _ right: StatusEvent, _ eventIDs: ByteStrings) -> Bool {
        left.occurredAt != right.occurredAt ? left.occurredAt < right.occurredAt : eventIDs.less(left.id, right.id)
    }

    mutating func add(_ event: StatusEvent, eventIDs: ByteStrings) {
        if latest.map({ Self.before($0, event, eventIDs) }) ?? true { latest = event }
        switch event.toStatus {
        case .completed where event.occurredAt < deadline:
            if firstCompletion.map({ Self.before(event, $0, eventIDs) }) ?? true { firstCompletion = event }
        case .completed:
            lateCompletion = true
        case .skipped where event.occurredAt < deadline:
            if lastSkip.map({ Self.before($0, event, eventIDs) }) ?? true { lastSkip = event }
        case .superseded:
            superseded = true
        default:
            break
        }
    }

    /// Whether the outcome as of `asOf` turns on the task's value entries:
    /// a value task, neither completed, skipped nor excluded, whose day is
    /// over. Only then need a caller look at them (`isOnTaskDay`).
    func asksForEntries(asOf: Instant, zones: ZoneCatalog) -> Bool {
        guard task.valueTask, !task.informational, firstCompletion == nil, lastSkip == nil else { return false }
        let latestStatus = latest?.toStatus ?? task.status
        return latestStatus != .canceled && latestStatus != .superseded
            && asOf >= zones.startOfDay(task.zone, task.localDate.adding(days: 1))
    }

    /// Whether a value entry recorded at `instant` falls on the task's local day.
    func isOnTaskDay(_ instant: Instant, zones: ZoneCatalog) -> Bool {
        zones.localDate(task.zone, instant) == task.localDate
    }

    /// The outcome as of `asOf`; `enteredOnTaskDay`: whether one of the
    /// task's accepted value entries is on its day (a caller may pass false
    /// without looking when `asksForEntries` is false: the rules do not
    /// reach that test then).
    func outcome(of index: Int, asOf: Instant, zones: ZoneCatalog, enteredOnTaskDay: Bool) -> TaskOutcome {
        var outcome = TaskOutcome(task: index, deadline: deadline)
        let latestStatus = latest?.toStatus ?? task.status
        outcome.supersededVersion = superseded
        if task.informational {
            outcome.countsAsInfoCard = latestStatus != .canceled && latestStatus != .superseded
            return outcome
        }
        if let completion = firstCompletion {
            outcome.kind = .completed
            outcome.occurredAt = completion.occurredAt
        } else if let skip = lastSkip {
            outcome.kind = .skipped
            outcome.occurredAt = skip.occurredAt
            outcome.skipReason = skip.reason
        } else if latestStatus == .canceled || latestStatus == .superseded {
            outcome.kind = .excluded
        } else if task.valueTask, asOf >= zones.startOfDay(task.zone, task.localDate.adding(days: 1)),
            enteredOnTaskDay
        {
            outcome.kind = .completed
            outcome.occurredAt = zones.startOfDay(task.zone, task.localDate.adding(days: 1))
        } else if asOf >= deadline {
            outcome.kind = .missed
            outcome.occurredAt = deadline
            outcome.late = lateCompletion
        } else {
            outcome.kind = .open
        }
        return outcome
    }
}
