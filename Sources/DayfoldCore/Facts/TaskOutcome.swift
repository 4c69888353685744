/// The outcome of one task as of T (SPEC §3), in rule order.
public enum OutcomeKind: String, Sendable {
    case completed = "COMPLETED", skipped = "SKIPPED", excluded = "EXCLUDED", missed = "MISSED", open = "OPEN"
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

/// Computes every task's outcome from its accepted events and value entries.
public enum TaskOutcomeCalculator {
    public static func outcomes(_ drop: IngestedDrop, asOf: Instant) -> [TaskOutcome] {
        var eventsByTask = [[Int]](repeating: [], count: drop.tasks.count)
        for (position, event) in drop.events.enumerated() { eventsByTask[event.task].append(position) }
        var entriesByTask = [[Int]](repeating: [], count: drop.tasks.count)
        for (position, entry) in drop.valueEntries.enumerated() where entry.accepted {
            entriesByTask[entry.task].append(position)
        }
        var results: [TaskOutcome] = []
        results.reserveCapacity(drop.tasks.count)
        for (index, task) in drop.tasks.enumerated() {
            let zones = drop.zones
            let deadline = zones.startOfDay(task.zone, task.localDate.adding(days: 2))
            var outcome = TaskOutcome(task: index, kind: nil, deadline: deadline)
            let events = eventsByTask[index].map { drop.events[$0] }
            let latest = events.max { ($0.occurredAt, $0.id) < ($1.occurredAt, $1.id) }
            let latestStatus = latest?.toStatus ?? task.status
            outcome.supersededVersion = task.status == .superseded || events.contains { $0.toStatus == .superseded }
            if task.informational {
                outcome.countsAsInfoCard = latestStatus != .canceled && latestStatus != .superseded
                results.append(outcome)
                continue
            }
            let inTimeCompletions = events.filter { $0.toStatus == .completed && $0.occurredAt < deadline }
            let inTimeSkips = events.filter { $0.toStatus == .skipped && $0.occurredAt < deadline }
            if let first = inTimeCompletions.min(by: { ($0.occurredAt, $0.id) < ($1.occurredAt, $1.id) }) {
                outcome.kind = .completed
                outcome.occurredAt = first.occurredAt
            } else if let skip = inTimeSkips.max(by: { ($0.occurredAt, $0.id) < ($1.occurredAt, $1.id) }) {
                outcome.kind = .skipped
                outcome.occurredAt = skip.occurredAt
                outcome.skipReason = skip.reason
            } else if latestStatus == .canceled || latestStatus == .superseded {
                outcome.kind = .excluded
            } else if task.valueTask, asOf >= zones.startOfDay(task.zone, task.localDate.adding(days: 1)),
                entriesByTask[index].contains(where: {
                    zones.localDate(task.zone, drop.valueEntries[$0].recordedAt) == task.localDate
                })
            {
                outcome.kind = .completed
                outcome.occurredAt = zones.startOfDay(task.zone, task.localDate.adding(days: 1))
            } else if asOf >= deadline {
                outcome.kind = .missed
                outcome.occurredAt = deadline
                outcome.late = events.contains { $0.toStatus == .completed && $0.occurredAt >= deadline }
            } else {
                outcome.kind = .open
            }
            results.append(outcome)
        }
        return results
    }
}
