/// The tasks whose outcomes the risk rules read (SPEC §5), per
/// relationship and in the order the rules walk them, found once for an
/// as-of series: its tasks are the same at every step (only their outcomes
/// move), so a step reads a few outcomes per relationship instead of
/// gathering every check-in of the drop (that pass was a tenth of a step).
///
/// Why the few are enough. MISSED_CHECK_INS walks back over a relationship's
/// check-ins up to today (newest first; on one date the greater task id, in
/// byte order, first) and stops at the first one that was not MISSED: it
/// never looks past that one. PAIN_REPORTED reads only SKIPPED outcomes
/// dated within [today − 6, today]. The rules are the only readers of
/// `SignalInputs.checkIns` and `skips`, so giving them those rows and no
/// others gives the same findings, evidence and explanations as giving them
/// all. (The rules filter and sort what they are given themselves, so a row
/// too many would be harmless; a row too few is what
/// `AsOfSeriesTests.aStepsSignalsReadTheCheckInsAndSkipsAPlainRunReads` catches.)
struct SignalTasks: Sendable {
    /// Check-in tasks, per relationship (`checkInStarts[r]..<checkInStarts[r + 1]`),
    /// newest first, on one date the greater id first (ties: task order).
    private let checkIns: [Int]
    private let checkInDates: [LocalDate]
    private let checkInStarts: [Int]
    /// Tasks with a SKIPPED event (only they can have a SKIPPED outcome),
    /// per relationship, in task order.
    private let skippable: [Int]
    private let skippableStarts: [Int]

    /// `isCheckIn[t]`: task `t` is a CHECK_IN; `isSkippable[t]`: some row
    /// of the series may skip it.
    init(_ drop: IngestedDrop, isCheckIn: [Bool], isSkippable: [Bool]) {
        let tasks = drop.tasks
        let count = drop.relationships.count
        func grouped(_ members: [Bool]) -> (tasks: [Int], starts: [Int]) {
            var starts = [Int](repeating: 0, count: count + 1)
            for index in tasks.indices where members[index] { starts[tasks[index].relationship + 1] += 1 }
            for relationship in 0..<count { starts[relationship + 1] += starts[relationship] }
            var next = starts
            var grouped = [Int](repeating: 0, count: starts[count])
            for index in tasks.indices where members[index] {
                grouped[next[tasks[index].relationship]] = index
                next[tasks[index].relationship] += 1
            }
            return (grouped, starts)
        }
        var (checkIns, checkInStarts) = grouped(isCheckIn)
        let ids = drop.taskIDs
        for relationship in 0..<count {
            checkIns[checkInStarts[relationship]..<checkInStarts[relationship + 1]].sort { left, right in
                let (a, b) = (tasks[left], tasks[right])
                if a.localDate != b.localDate { return a.localDate > b.localDate }
                if bytesLess(ids[b.id], ids[a.id]) { return true }
                if bytesLess(ids[a.id], ids[b.id]) { return false }
                return left < right
            }
        }
        self.checkIns = checkIns
        self.checkInStarts = checkInStarts
        checkInDates = checkIns.map { tasks[$0].localDate }
        (skippable, skippableStarts) = grouped(isSkippable)
    }

    /// The check-ins MISSED_CHECK_INS reads for `relationship` as of its
    /// `today`: newest first, the MISSED ones and the first that is not.
    func checkIns(
        _ relationship: Int, today: LocalDate, outcomes: [TaskOutcome], drop: IngestedDrop
    ) -> [(LocalDate, Int, OutcomeKind)] {
        let range = checkInStarts[relationship]..<checkInStarts[relationship + 1]
        var position = checkInDates[range].partitionPoint { $0 > today }
        var read: [(LocalDate, Int, OutcomeKind)] = []
        while position < range.upperBound {
            let task = checkIns[position]
            position += 1
            guard let kind = outcomes[task].kind, kind.isScored else { continue }
            read.append((drop.tasks[task].localDate, task, kind))
            if kind != .missed { break }
        }
        return read
    }

    /// The SKIPPED outcomes PAIN_REPORTED reads for `relationship` as of its
    /// `today` (dated within [today − 6, today]), in task order.
    func skips(
        _ relationship: Int, today: LocalDate, outcomes: [TaskOutcome], drop: IngestedDrop
    ) -> [(LocalDate, Int, String?)] {
        let weekStart = today.adding(days: -6)
        var read: [(LocalDate, Int, String?)] = []
        for task in skippable[skippableStarts[relationship]..<skippableStarts[relationship + 1]] {
            let date = drop.tasks[task].localDate
            guard date >= weekStart && date <= today, outcomes[task].kind == .skipped else { continue }
            read.append((date, task, drop.eventReason(outcomes[task].skipReason)))
        }
        return read
    }
}
