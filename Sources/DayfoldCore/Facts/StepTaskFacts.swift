/// A series' task outcomes and days of activity, carried from one step to
/// the next (SPEC §12: the series in one pass): a step computes again only
/// the tasks it can change, instead of every task from every event.
///
/// Why that is exact. A task's outcome reads its accepted events and value
/// entries, and reads the as-of only in two tests (`asOf >=` its deadline,
/// and for a value task `asOf >=` the start of the day after the task's).
/// So between two steps a task's outcome can change only if one of its
/// rows was accepted at one and not at the other, or one of those two
/// instants lies after the earlier step and not after the later one (a
/// task due after both steps stays OPEN: it is not computed again).
/// The days of activity are a union over the accepted rows: the rows every
/// step accepts are gathered once, and a step adds the days of the others
/// it accepts.
///
/// Which rows a step accepts comes from the series' candidates
/// (`AsOfCandidates`, `TaskRowSteps`): a workout log's event when it is not
/// after the step; a status event or value entry decided once (accepted or
/// a duplicate at every step) or, in a group with a row after the first
/// step, by that step's duplicate test (`TaskRowDecisions`: a step tests
/// again only the groups with a row between it and the step before). The
/// days of activity are carried too: a count of accepted rows per
/// relationship and day follows the rows whose fate changed.
struct StepTaskFacts {
    private let tasks: [DailyTask]
    private let zones: ZoneCatalog
    private let eventIDs: ByteStrings
    private let logEvents: [StatusEvent]
    private let events: TaskRowCandidates<StatusEvent>
    private let values: TaskRowCandidates<ValueEntry>
    private let eventSteps: TaskRowSteps
    private let valueSteps: TaskRowSteps
    /// Each task's events that some step accepts, as positions in the
    /// workout logs' events followed by the status events (a step's drop
    /// puts them in that order, and ties between events read it).
    private let eventGroups: TaskIndexGroups
    private let eventRows: [Int32]
    /// Each task's value entries that some step accepts and that count.
    private let entryGroups: TaskIndexGroups
    private let entryRows: [Int32]
    private let deadlines: [Instant]
    /// The tasks whose outcome a risk rule may read at some step, per
    /// relationship: the check-ins, and the tasks with a skip event some
    /// step may accept (`FactsStage.computeSignals(…, readingOnly:)`; a
    /// step's signals passed over all million outcomes and tasks to find them).
    let signalTasks: SignalTasks
    /// For a value task, the start of the day after its day (its outcome
    /// tests whether the as-of has reached it); a far future otherwise.
    private let dayAfterStarts: [Instant]
    /// Whether the current step accepts each event (positions as in
    /// `eventRows`) and each value entry.
    private var eventLive: [Bool]
    private var entryLive: [Bool]
    /// The workout logs' events after the first step (the only ones a step
    /// may leave out; a log's event is at its own position in `eventRows`).
    private let lateLogs: [Int32]
    /// Where each per-step event sits in `eventRows`, and each per-step
    /// value entry in `entryRows` (nil: an entry that does not count).
    private let perStepEventSlots: [Int32]
    private let perStepEntrySlots: [Int32?]
    /// The per-step rows' decisions at the current step.
    private var eventDecisions: TaskRowDecisions
    private var entryDecisions: TaskRowDecisions
    /// The days of activity at the current step: the steady rows' days,
    /// and the days of the rows a step may or may not accept that it
    /// accepts.
    private var activity: [Set<LocalDate>]
    /// The (relationship, local day) activity slots of the rows a step may
    /// or may not accept, leaving out days the steady rows make active
    /// already: each such row's slot (nil: not activity, or a steady day) —
    /// late logs' events, the per-step events, the per-step value entries —
    /// and how many rows accepted at the current step fill each slot.
    private let activitySlots: [(relationship: Int, day: LocalDate)]
    private let lateLogSlots: [Int32?]
    private let perStepEventSlotsOfActivity: [Int32?]
    private let perStepEntrySlotsOfActivity: [Int32?]
    private var activityCounts: [Int32]
    private var outcomes: [TaskOutcome] = []
    /// The outcomes of the step before the last: the step that read them is
    /// finished by the time the next is carried, so this step's outcomes are
    /// copied into their pages (a fresh array of a million outcomes was
    /// faulted in again at every step).
    private var spare: [TaskOutcome] = []
    /// The tasks whose outcomes in `spare` may differ from `outcomes` (nil:
    /// any): a step brings the spare up to the last step by copying those
    /// only (a few thousand of a million once the steps are in order).
    private var spareBehind: [Int]?
    private var previous: Instant?

    init(
        _ base: IngestedDrop, candidates: AsOfCandidates, events eventSteps: TaskRowSteps,
        values valueSteps: TaskRowSteps, from: Instant
    ) {
        tasks = base.tasks
        zones = base.zones
        eventIDs = candidates.eventIDs
        logEvents = candidates.logEvents
        events = candidates.events
        values = candidates.values
        self.eventSteps = eventSteps
        self.valueSteps = valueSteps
        let logCount = logEvents.count

        var eventRows: [Int32] = []
        var eventTasks: [Int] = []
        for (position, event) in logEvents.enumerated() {
            eventRows.append(Int32(position))
            eventTasks.append(event.task)
        }
        for position in 0..<events.count where eventSteps.everAccepted(position) {
            eventRows.append(Int32(logCount + position))
            eventTasks.append(events.rows[position].task)
        }
        self.eventRows = eventRows
        eventGroups = TaskIndexGroups(taskCount: tasks.count, eventTasks)
        let checkIn = base.checkInKind
        var skippable = [Bool](repeating: false, count: tasks.count)
        for row in eventRows {
            let event = Int(row) < logCount ? logEvents[Int(row)] : events.rows[Int(row) - logCount]
            if event.toStatus == .skipped { skippable[event.task] = true }
        }
        signalTasks = SignalTasks(
            base, isCheckIn: tasks.map { checkIn != nil && $0.kind == checkIn }, isSkippable: skippable)
        var entryRows: [Int32] = []
        var entryTasks: [Int] = []
        for position in 0..<values.count where valueSteps.everAccepted(position) && values.rows[position].accepted {
            entryRows.append(Int32(position))
            entryTasks.append(values.rows[position].task)
        }
        self.entryRows = entryRows
        var eventSlot = [Int32](repeating: -1, count: events.count)
        for (slot, row) in eventRows.enumerated() where Int(row) >= logCount {
            eventSlot[Int(row) - logCount] = Int32(slot)
        }
        perStepEventSlots = eventSteps.perStepPositions.map { eventSlot[Int($0)] }
        var entrySlot = [Int32?](repeating: nil, count: values.count)
        for (slot, row) in entryRows.enumerated() { entrySlot[Int(row)] = Int32(slot) }
        perStepEntrySlots = valueSteps.perStepPositions.map { entrySlot[Int($0)] }
        entryGroups = TaskIndexGroups(taskCount: tasks.count, entryTasks)
        var deadlineOf = TaskOutcomeCalculator.Deadlines(zones)
        deadlines = tasks.map { deadlineOf.of($0) }
        let catalog = self.zones
        dayAfterStarts = tasks.map {
            $0.valueTask && !$0.informational
                ? catalog.startOfDay($0.zone, $0.localDate.adding(days: 1)) : Instant(micros: .max)
        }

        // Every step accepts a log's event not after the first step and an
        // event or entry decided as accepted; the others start left out.
        eventLive = eventRows.map {
            let row = Int($0)
            return row < logCount
                ? candidates.logEvents[row].occurredAt <= from : eventSteps.alwaysAccepted(row - logCount)
        }
        entryLive = entryRows.map { valueSteps.alwaysAccepted(Int($0)) }
        lateLogs = candidates.logEvents.indices.filter { candidates.logEvents[$0].occurredAt > from }.map(Int32.init)

        // The steady rows' days, as a drop of theirs would give them.
        var steady = base
        steady.events = candidates.logEvents.filter { $0.occurredAt <= from }
        steady.events += (0..<events.count).filter(eventSteps.alwaysAccepted).map { candidates.events.rows[$0] }
        steady.valueEntries = (0..<values.count).filter(valueSteps.alwaysAccepted).map { candidates.values.rows[$0] }
        let steadyActivity = FactsStage.relationshipActivity(steady)
        activity = steadyActivity
        var slots: [(relationship: Int, day: LocalDate)] = []
        var slotOf: [Int64: Int32] = [:]
        func slot(_ task: Int, _ instant: ParsedInstant) -> Int32? {
            let relationship = base.tasks[task].relationship
            let day = base.userZones.localDate(base.relationships[relationship].clientUserID, instant)
            guard !steadyActivity[relationship].contains(day) else { return nil }
            let key = Int64(relationship) << 32 | Int64(UInt32(bitPattern: day.days))
            if let known = slotOf[key] { return known }
            slots.append((relationship, day))
            slotOf[key] = Int32(slots.count - 1)
            return Int32(slots.count - 1)
        }
        func activitySlot(_ event: StatusEvent) -> Int32? {
            guard FactsStage.countsAsActivity(event.toStatus) else { return nil }
            return slot(event.task, ParsedInstant(instant: event.occurredAt, offsetSeconds: event.offsetSeconds))
        }
        lateLogSlots = lateLogs.map { activitySlot(candidates.logEvents[Int($0)]) }
        perStepEventSlotsOfActivity = eventSteps.perStepPositions.map { activitySlot(candidates.events.rows[Int($0)]) }
        perStepEntrySlotsOfActivity = valueSteps.perStepPositions.map {
            let entry = candidates.values.rows[Int($0)]
            guard entry.accepted else { return nil }
            return slot(entry.task, ParsedInstant(instant: entry.recordedAt, offsetSeconds: entry.offsetSeconds))
        }
        activitySlots = slots
        activityCounts = [Int32](repeating: 0, count: slots.count)
        eventDecisions = TaskRowDecisions(eventSteps)
        entryDecisions = TaskRowDecisions(valueSteps)
    }

    /// A row filling activity slot `slot` was accepted or left out: its day
    /// is active while some accepted row fills the slot.
    private mutating func count(_ slot: Int32?, accepted: Bool) {
        guard let slot = slot.map(Int.init) else { return }
        activityCounts[slot] += accepted ? 1 : -1
        let (relationship, day) = activitySlots[slot]
        if accepted, activityCounts[slot] == 1 {
            activity[relationship].insert(day)
        } else if !accepted, activityCounts[slot] == 0 {
            activity[relationship].remove(day)
        }
    }

    /// The outcomes (one per task, in task order) and the days of activity
    /// per relationship as of `asOf`, a step not before the previous one.
    /// `recomputed`: the tasks whose outcomes were computed again since the
    /// step before (nil: every task).
    mutating func advance(to asOf: Instant) -> (
        outcomes: [TaskOutcome], activity: [Set<LocalDate>], recomputed: [Int]?
    ) {
        var changed = [Bool](repeating: false, count: tasks.count)
        // The rows whose fate changed since the step before (every row the
        // first step accepts): a task with one is computed again, and the
        // days of activity follow them.
        for (index, position) in lateLogs.enumerated() {
            let event = logEvents[Int(position)]
            let accepted = event.occurredAt <= asOf
            guard eventLive[Int(position)] != accepted else { continue }
            eventLive[Int(position)] = accepted
            changed[event.task] = true
            count(lateLogSlots[index], accepted: accepted)
        }
        for index in eventDecisions.advance(to: asOf, steps: eventSteps, rows: events) {
            let accepted = eventDecisions.accepted[index]
            eventLive[Int(perStepEventSlots[index])] = accepted
            changed[events.rows[Int(eventSteps.perStepPositions[index])].task] = true
            count(perStepEventSlotsOfActivity[index], accepted: accepted)
        }
        for index in entryDecisions.advance(to: asOf, steps: valueSteps, rows: values) {
            let accepted = entryDecisions.accepted[index]
            if let slot = perStepEntrySlots[index] {
                entryLive[Int(slot)] = accepted
                changed[values.rows[Int(valueSteps.perStepPositions[index])].task] = true
            }
            count(perStepEntrySlotsOfActivity[index], accepted: accepted)
        }
        // Bound once: a method reading `self` per task copied all of it.
        let (tasks, deadlines, eventGroups, entryGroups) = (tasks, deadlines, eventGroups, entryGroups)
        let (eventRows, entryRows, eventLive, entryLive) = (eventRows, entryRows, eventLive, entryLive)
        let (logEvents, events, values, eventIDs, zones) = (logEvents, events.rows, values.rows, eventIDs, zones)
        func outcome(_ index: Int) -> TaskOutcome {
            var rules = TaskOutcomeRules(tasks[index], deadline: deadlines[index])
            for position in eventGroups.range(index) {
                let slot = eventGroups.members[position]
                guard eventLive[slot] else { continue }
                let row = Int(eventRows[slot])
                rules.add(row < logEvents.count ? logEvents[row] : events[row - logEvents.count], eventIDs: eventIDs)
            }
            let entered =
                rules.asksForEntries(asOf: asOf, zones: zones)
                && entryGroups.range(index).contains {
                    let slot = entryGroups.members[$0]
                    return entryLive[slot] && rules.isOnTaskDay(values[Int(entryRows[slot])].recordedAt, zones: zones)
                }
            return rules.outcome(of: index, asOf: asOf, zones: zones, enteredOnTaskDay: entered)
        }
        var recomputed: [Int]?
        if let earlier = previous, asOf >= earlier {
            let dayAfterStarts = dayAfterStarts
            let again = tasks.indices.filter {
                changed[$0] || (deadlines[$0] > earlier && deadlines[$0] <= asOf)
                    || (dayAfterStarts[$0] > earlier && dayAfterStarts[$0] <= asOf)
            }
            // The last step's outcomes are still read (its facts are written
            // beside this step): this step starts from the spare (the step
            // before the last's), brought up to the last step where the two
            // differ, in its own pages when no one holds it any more.
            var next: [TaskOutcome] = []
            swap(&next, &spare)
            if next.count == outcomes.count, let behind = spareBehind {
                for index in behind { next[index] = outcomes[index] }
            } else if next.count == outcomes.count {
                next.replaceSubrange(next.indices, with: outcomes)
            } else {
                next = outcomes
            }
            for index in again { next[index] = outcome(index) }
            spare = outcomes
            spareBehind = again
            outcomes = next
            recomputed = again
        } else {
            outcomes = tasks.indices.map(outcome)
            spareBehind = nil
        }
        previous = asOf
        return (outcomes, activity, recomputed)
    }
}
