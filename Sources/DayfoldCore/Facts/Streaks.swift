/// One row of `streaks` (SPEC §5).
public struct StreakSummary: Sendable {
    public var relationship: Int
    public var asOfDate: LocalDate
    public var currentDays = 0
    public var currentStart: LocalDate?
    public var longestDays = 0
    public var longestStart: LocalDate?
    public var longestEnd: LocalDate?
    public var lastKept: LocalDate?
    public var adherence7: Double?
    public var adherence30: Double?
    public var adherence90: Double?
}

public enum StreakCalculator {
    /// Σcompleted / Σscored over the `window` dates ending at `last`; nil
    /// when nothing was scored. `days` are in date order (as
    /// `RelationshipDayBuilder` builds them): the window is found by a
    /// binary search and only its days are read (a series reads every
    /// relationship's whole history at every step otherwise).
    static func adherence(_ days: [RelationshipDay], endingAt last: LocalDate, window: Int) -> Double? {
        let first = last.adding(days: -(window - 1))
        var completed = 0
        var scored = 0
        for day in days[days.partitionPoint { $0.date < first }...] {
            if day.date > last { break }
            completed += day.completed
            scored += day.scored
        }
        return scored == 0 ? nil : Double(completed) / Double(scored)
    }

    public static func summary(_ days: [RelationshipDay], relationship: Int, today: LocalDate) -> StreakSummary? {
        guard !days.isEmpty else { return nil }
        var summary = StreakSummary(relationship: relationship, asOfDate: today)
        var runStart: LocalDate?
        var runLength = 0
        var runLast: LocalDate?
        for day in days {
            switch day.state {
            case .kept:
                if runLength == 0 { runStart = day.date }
                runLength += 1
                runLast = day.date
                summary.lastKept = day.date
                if runLength > summary.longestDays {
                    summary.longestDays = runLength
                    summary.longestStart = runStart
                    summary.longestEnd = runLast
                }
            case .broken:
                runLength = 0
                runStart = nil
            case .open, .neutral:
                break
            }
        }
        // Current: the run ending at the latest day that is neither NEUTRAL nor OPEN.
        if let latest = days.last(where: { $0.state == .kept || $0.state == .broken }), latest.state == .kept {
            summary.currentDays = runLength
            summary.currentStart = runStart
        }
        let lastClosed = today.adding(days: -2)
        summary.adherence7 = adherence(days, endingAt: lastClosed, window: 7)
        summary.adherence30 = adherence(days, endingAt: lastClosed, window: 30)
        summary.adherence90 = adherence(days, endingAt: lastClosed, window: 90)
        return summary
    }
}
