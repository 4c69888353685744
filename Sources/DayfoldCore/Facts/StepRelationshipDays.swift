/// A series' relationship day tables carried from one step to the next
/// (SPEC §12: the series in one pass): a step builds again only each
/// relationship's days from the first one it can change.
///
/// Why that is exact. A day's counts are its tasks' outcomes and its info
/// cards; its state reads its counts, and its streak the day before's. So a
/// relationship's days before the first day of a task whose outcome was
/// computed again (`StepTaskFacts` says which), and before the day its
/// table grows from, are the step before's; from there on they are counted
/// and settled again, the streak carried from the day before.
struct StepRelationshipDays {
    private let streakThreshold: Double
    private var tables: [[RelationshipDay]] = []
    /// Each relationship's first and last day at the step before (nil: no days ever).
    private var firsts: [LocalDate?] = []
    private var ends: [LocalDate] = []
    /// Each relationship's tasks, and the days of its info cards.
    private var tasksOf: TaskIndexGroups?
    private var cardDays: [[LocalDate]] = []

    init(streakThreshold: Double) { self.streakThreshold = streakThreshold }

    /// The day tables as of a step: `recomputed` lists the tasks whose
    /// outcomes were computed again since the step before (nil: every task,
    /// or no step before), `today` each relationship's today.
    mutating func advance(
        _ drop: IngestedDrop, outcomes: [TaskOutcome], recomputed: [Int]?, today: [LocalDate]
    ) -> [[RelationshipDay]] {
        let ends = zip(drop.relationships, today).map { RelationshipDayBuilder.end($0, $1) }
        guard let recomputed, let tasksOf, tables.count == drop.relationships.count else {
            tables = RelationshipDayBuilder.build(
                drop, outcomes: outcomes, today: today, streakThreshold: streakThreshold)
            firsts = RelationshipDayBuilder.firstDays(drop)
            self.ends = ends
            self.tasksOf = TaskIndexGroups(taskCount: drop.relationships.count, drop.tasks.map(\.relationship))
            cardDays = [[LocalDate]](repeating: [], count: drop.relationships.count)
            for card in drop.infoCards { cardDays[card.relationship].append(card.localDate) }
            return tables
        }
        // From which day each relationship's days may differ.
        var from = [LocalDate?](repeating: nil, count: drop.relationships.count)
        for task in recomputed {
            let (relationship, date) = (drop.tasks[task].relationship, drop.tasks[task].localDate)
            from[relationship] = min(from[relationship] ?? date, date)
        }
        for index in drop.relationships.indices {
            guard let first = firsts[index] else { continue }
            let (end, previousEnd) = (ends[index], self.ends[index])
            var start = from[index] ?? end.adding(days: 1)
            // A table that grew counts its new days; one that shrank (an
            // earlier today), or had none, is built again whole.
            if end > previousEnd { start = min(start, previousEnd.adding(days: 1)) }
            if end < previousEnd || tables[index].isEmpty { start = first }
            start = max(start, first)
            guard start <= end else { continue }
            let keep = Int(start.days - first.days)
            tables[index].removeLast(tables[index].count - min(keep, tables[index].count))
            RelationshipDayBuilder.appendDays(drop, relationship: index, from: start, through: end, to: &tables[index])
            func slot(_ date: LocalDate) -> Int? { date >= start && date <= end ? Int(date.days - first.days) : nil }
            for position in tasksOf.range(index) {
                let task = tasksOf.members[position]
                guard let slot = slot(drop.tasks[task].localDate) else { continue }
                RelationshipDayBuilder.count(
                    outcomes[task], informational: drop.tasks[task].informational, on: &tables[index][slot])
            }
            for date in cardDays[index] {
                if let slot = slot(date) { tables[index][slot].infoCards += 1 }
            }
            RelationshipDayBuilder.settle(&tables[index], from: keep, streakThreshold: streakThreshold)
        }
        self.ends = ends
        return tables
    }
}
