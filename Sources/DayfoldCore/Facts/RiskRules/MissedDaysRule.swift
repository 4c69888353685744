/// MISSED_DAYS (SPEC §5): walking back over scored closed days, the days
/// with adherence 0 before the first with adherence > 0; 2 → MEDIUM,
/// 3 or more → HIGH.
struct MissedDaysRule: RiskRule {
    /// `{"count":2,"dates":["2026-03-17","2026-03-18"]}`; count is the number of dates.
    struct Evidence: RiskEvidence, Equatable {
        /// Oldest first.
        var dates: [LocalDate]

        func write(to writer: inout EvidenceWriter) {
            writer.field("count", dates.count)
            writer.field("dates", dates)
        }
    }

    var name: String { "MISSED_DAYS" }

    func evaluate(_ context: SignalContext) -> RiskFinding<Evidence>? {
        var missed: [LocalDate] = []  // newest first
        for day in context.scoredClosedDays {
            guard let adherence = day.adherence, adherence <= 0 else { break }
            missed.append(day.date)
        }
        guard missed.count >= 2, let first = missed.last, let last = missed.first else { return nil }
        return RiskFinding(
            severity: missed.count >= 3 ? .high : .medium, windowFrom: first, windowTo: last,
            evidence: Evidence(dates: missed.reversed()),
            explanation: "Missed every task on \(missed.count) days in a row (\(RiskRules.span(first, last))).")
    }
}
