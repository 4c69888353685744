/// The outcome of one task as of T (SPEC §3), in rule order.
public enum OutcomeKind: String, Sendable {
    case completed = "COMPLETED"
    case skipped = "SKIPPED"
    case excluded = "EXCLUDED"
    case missed = "MISSED"
    case open = "OPEN"

    /// The name's UTF-8 bytes (for writers that fill byte columns).
    var utf8Name: [UInt8] {
        switch self {
        case .completed: OutcomeKind.completedName
        case .skipped: OutcomeKind.skippedName
        case .excluded: OutcomeKind.excludedName
        case .missed: OutcomeKind.missedName
        case .open: OutcomeKind.openName
        }
    }
    private static let completedName = Array("COMPLETED".utf8)
    private static let skippedName = Array("SKIPPED".utf8)
    private static let excludedName = Array("EXCLUDED".utf8)
    private static let missedName = Array("MISSED".utf8)
    private static let openName = Array("OPEN".utf8)
}

public struct TaskOutcome: Sendable {
    public var task: Int
    /// nil for informational reminders: they have no outcome.
    public var kind: OutcomeKind?
    public var deadline: Instant
    public var occurredAt: Instant?
    public var late = false
    public var supersededVersion = false
    public var skipReason: String?
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
        /// (occurred_at, id) order: ids break ties, compared as bytes.
        func before(_ left: StatusEvent, _ right: StatusEvent) -> Bool {
            left.occurredAt != right.occurredAt
                ? left.occurredAt < right.occurredAt : drop.eventIDs.less(left.id, right.id)
        }
        let zones = drop.zones
        var results: [TaskOutcome] = []
        results.reserveCapacity(drop.tasks.count)
        // A day's tasks sit together in the exports: their shared deadline
        // is worked out once (four zone-offset searches each time).
        var deadlineOf: (zone: ZoneID, day: Int32, deadline: Instant)?
        for (index, task) in drop.tasks.enumerated() {
            let deadline: Instant
            if let known = deadlineOf, known.zone == task.zone, known.day == task.localDate.days {
                deadline = known.deadline
            } else {
                deadline = zones.startOfDay(task.zone, task.localDate.adding(days: 2))
                deadlineOf = (task.zone, task.localDate.days, deadline)
            }
            var outcome = TaskOutcome(task: index, kind: nil, deadline: deadline)
            var latest: StatusEvent?
            var firstCompletion: StatusEvent?
            var lastSkip: StatusEvent?
            var superseded = task.status == .superseded
            var lateCompletion = false
            for position in eventGroups.range(index) {
                let event = events[eventGroups.members[position]]
                if latest.map({ before($0, event) }) ?? true { latest = event }
                switch event.toStatus {
                case .completed where event.occurredAt < deadline:
                    if firstCompletion.map({ before(event, $0) }) ?? true { firstCompletion = event }
                case .completed:
                    lateCompletion = true
                case .skipped where event.occurredAt < deadline:
                    if lastSkip.map({ before($0, event) }) ?? true { lastSkip = event }
                case .superseded:
                    superseded = true
                default:
                    break
                }
            }
            let latestStatus = latest?.toStatus ?? task.status
            outcome.supersededVersion = superseded
            if task.informational {
                outcome.countsAsInfoCard = latestStatus != .canceled && latestStatus != .superseded
                results.append(outcome)
                continue
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
                entryGroups.range(index).contains(where: {
                    zones.localDate(task.zone, drop.valueEntries[acceptedEntries[entryGroups.members[$0]]].recordedAt)
                        == task.localDate
                })
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
            results.append(outcome)
        }
        return results
    }
}
