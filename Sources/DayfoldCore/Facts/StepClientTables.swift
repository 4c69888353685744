import Synchronization

/// A series' client day tables carried from one step to the next (SPEC
/// §12: the series in one pass): a step fills again only the days whose
/// journal or health figures it can change, and the days its today adds.
///
/// Why that is exact. A client day holds its date's zone name, the sums of
/// the entries on that day (in journal order) and that day's health
/// aggregate, nothing else; and between two steps only the days holding an
/// entry whose winning revision changed, or a sample that came in, differ
/// (`AsOfSteps.changedClientDays`). A table whose first day moved, whose
/// today went back, or that a step before did not have, is built whole.
///
/// A class holding its tables behind a lock, so that a step can compute
/// them on a thread beside the task side's while the tables stay held
/// once (a copy of this value would make every growing table copy its days).
final class StepClientTables: Sendable {
    /// The tables of the step before, sorted by user as `ClientDayBuilder` sorts them.
    private let tables = Mutex<[ClientTable]>([])

    /// The client tables as of `asOf`. `changed` holds, per user, the days
    /// whose figures may differ from the step before's (nil: no step
    /// before, or an earlier one, so every table is built whole).
    func advance(
        _ drop: IngestedDrop, asOf: ParsedInstant, journalByUser: [String: [(date: LocalDate, entry: Int)]],
        changed: [String: Set<LocalDate>]?
    ) -> [ClientTable] {
        tables.withLock { previous in
            previous = advance(drop, asOf: asOf, journalByUser: journalByUser, changed: changed, previous: &previous)
            return previous
        }
    }

    private func advance(
        _ drop: IngestedDrop, asOf: ParsedInstant, journalByUser: [String: [(date: LocalDate, entry: Int)]],
        changed: [String: Set<LocalDate>]?, previous: inout [ClientTable]
    ) -> [ClientTable] {
        var result: [ClientTable] = []
        var next = 0
        for user in ClientDayBuilder.users(drop, journalByUser: journalByUser) {
            let journal = journalByUser[user] ?? []
            let today = ClientDayBuilder.today(drop, user: user, asOf: asOf)
            // The step before's table of this user, taken out so that its
            // days are held once (growing them copies nothing).
            while next < previous.count && bytesLess(previous[next].user, user) { next += 1 }
            var carried: ClientTable?
            if next < previous.count && previous[next].user == user {
                carried = previous[next]
                previous[next].days = []
                next += 1
            }
            let requestedBefore = carried?.requestedDietarySource
            // Moved out of `carried`, so that `table` holds its days alone
            // (a second reference made growing them copy every day).
            guard let changed, var table = carried.take(), today >= table.today,
                let first = table.days.first?.date,
                first == ClientDayBuilder.firstDay(drop, user: user, journal: journal)
            else {
                let requested = requestedBefore ?? ProgressCalculator.requestedSource(drop, user, .energyKcal)
                result.append(
                    ClientDayBuilder.table(drop, user: user, today: today, requested: requested, journal: journal))
                continue
            }
            var days = changed[user] ?? []
            if today > table.today {
                for offset in 1...Int(today.days - table.today.days) { days.insert(table.today.adding(days: offset)) }
                ClientDayBuilder.appendDays(drop, user: user, through: today, to: &table.days, from: first)
            }
            table.today = today
            if !days.isEmpty { ClientDayBuilder.fill(&table.days, drop, user: user, journal: journal, only: days) }
            result.append(table)
        }
        return result
    }
}
