/// Day state of a relationship day (SPEC §4).
public enum DayState: String, Sendable {
    case open = "OPEN"
    case neutral = "NEUTRAL"
    case kept = "KEPT"
    case broken = "BROKEN"
}

/// One row of the relationship day table.
public struct RelationshipDay: Sendable, Equatable {
    public var relationship: Int
    public var date: LocalDate
    /// The day's zone (`ZoneCatalog.name(of:)` names it); an id, so a day is
    /// plain data (see `ClientDay.zone`).
    public var zone: ZoneID
    public var completed = 0
    public var skipped = 0
    public var missed = 0
    public var open = 0
    public var excluded = 0
    public var infoCards = 0
    public var state: DayState = .neutral
    public var streakLength = 0

    public var scored: Int { completed + skipped + missed }
    public var tasksTotal: Int { completed + skipped + missed + open + excluded }
    /// NULL (nil) when nothing was scored: a rest day is not a 0% day.
    public var adherence: Double? { scored == 0 ? nil : Double(completed) / Double(scored) }
}

/// Builds the dense relationship day table from task outcomes.
public enum RelationshipDayBuilder {
    /// Days per relationship, in date order (index = relationship).
    public static func build(
        _ drop: IngestedDrop, outcomes: [TaskOutcome], today: [LocalDate], streakThreshold: Double,
        owned: Set<String>? = nil
    ) -> [[RelationshipDay]] {
        let firstDays = firstDays(drop)
        var tables: [[RelationshipDay]] = []
        var starts: [LocalDate] = []
        for (index, relationship) in drop.relationships.enumerated() {
            guard owned?.contains(relationship.clientUserID) ?? true, let start = firstDays[index] else {
                tables.append([])
                starts.append(LocalDate(days: 0))
                continue
            }
            var days: [RelationshipDay] = []
            appendDays(drop, relationship: index, from: start, through: end(relationship, today[index]), to: &days)
            tables.append(days)
            starts.append(start)
        }
        // Read while `tables` is being updated: the lengths are taken first.
        let lengths = tables.map(\.count)
        func slot(_ relationship: Int, _ date: LocalDate) -> Int? {
            let offset = Int(date.days - starts[relationship].days)
            return offset >= 0 && offset < lengths[relationship] ? offset : nil
        }
        // Outcomes come in file order, days by relationship: the counters
        // they bump are scattered (`updateScattered` loads each some visits early).
        func target(_ visit: Int) -> (row: Int, column: Int)? {
            let task = drop.tasks[outcomes[visit].task]
            return slot(task.relationship, task.localDate).map { (task.relationship, $0) }
        }
        tables.updateScattered(visits: outcomes.count, slot: target) { visit, day in
            count(outcomes[visit], informational: drop.tasks[outcomes[visit].task].informational, on: &day)
        }
        for card in drop.infoCards {
            guard let position = slot(card.relationship, card.localDate) else { continue }
            tables[card.relationship][position].infoCards += 1
        }
        for index in tables.indices { settle(&tables[index], from: 0, streakThreshold: streakThreshold) }
        return tables
    }

    /// Each relationship's first day: its first task's or info card's, or
    /// its start when earlier (nil: none of them).
    static func firstDays(_ drop: IngestedDrop) -> [LocalDate?] {
        var firstDay = [LocalDate?](repeating: nil, count: drop.relationships.count)
        for task in drop.tasks {
            firstDay[task.relationship] = min(firstDay[task.relationship] ?? task.localDate, task.localDate)
        }
        for card in drop.infoCards {
            firstDay[card.relationship] = min(firstDay[card.relationship] ?? card.localDate, card.localDate)
        }
        return drop.relationships.indices.map {
            [firstDay[$0], drop.relationships[$0].startedOn].compactMap { $0 }.min()
        }
    }

    /// A relationship's last day: its today, or its end when earlier.
    static func end(_ relationship: Relationship, _ today: LocalDate) -> LocalDate {
        relationship.endedOn.map { min(today, $0) } ?? today
    }

    /// Appends empty days `from`…`through` (none when `from` is later), each
    /// with the name of the relationship's zone on that day.
    static func appendDays(
        _ drop: IngestedDrop, relationship index: Int, from: LocalDate, through: LocalDate,
        to days: inout [RelationshipDay]
    ) {
        guard from <= through else { return }
        // Room for a new table; a table that grows by a day at a series'
        // step grows as arrays do (an exact reserve would copy it every time).
        if days.isEmpty { days.reserveCapacity(Int(through.days - from.days) + 1) }
        let schedule = drop.userZones.schedule(drop.relationships[index].clientUserID)
        for offset in 0...Int(through.days - from.days) {
            let date = from.adding(days: offset)
            days.append(RelationshipDay(relationship: index, date: date, zone: schedule.zone(on: date)))
        }
    }

    /// Counts a task's outcome on its day (an informational reminder as an
    /// info card when it counts as one).
    static func count(_ outcome: TaskOutcome, informational: Bool, on day: inout RelationshipDay) {
        if informational {
            if outcome.countsAsInfoCard { day.infoCards += 1 }
            return
        }
        switch outcome.kind {
        case .completed: day.completed += 1
        case .skipped: day.skipped += 1
        case .missed: day.missed += 1
        case .open: day.open += 1
        case .excluded: day.excluded += 1
        case nil: break
        }
    }

    /// The day states and streak lengths of `days` from `position` on, the
    /// streak carried from the day before it.
    static func settle(_ days: inout [RelationshipDay], from position: Int, streakThreshold: Double) {
        var streak = position > 0 ? days[position - 1].streakLength : 0
        for position in days.indices.dropFirst(position) {
            var day = days[position]
            if day.open > 0 {
                day.state = .open
            } else if day.scored == 0 {
                day.state = .neutral
            } else if let adherence = day.adherence, adherence >= streakThreshold - 1e-9 {
                day.state = .kept
            } else {
                day.state = .broken
            }
            switch day.state {
            case .kept: streak += 1
            case .broken: streak = 0
            case .open, .neutral: break
            }
            day.streakLength = streak
            days[position] = day
        }
    }
}
