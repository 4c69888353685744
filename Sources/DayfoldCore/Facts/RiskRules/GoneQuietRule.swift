/// GONE_QUIET (SPEC §5): walking back over scored closed days, the days
/// without client activity before the first with some; 4 or more → MEDIUM,
/// 7 or more → HIGH.
struct GoneQuietRule: RiskRule {
    /// `{"count":4,"dates":["2026-03-15",…]}`; count is the number of dates.
    struct Evidence: RiskEvidence, Equatable {
        /// Oldest first.
        var dates: [LocalDate]

        func write(to writer: inout EvidenceWriter) {
            writer.field("count", dates.count)
            writer.field("dates", dates)
        }
    }

    var name: String { "GONE_QUIET" }

    func evaluate(_ context: SignalContext) -> RiskFinding<Evidence>? {
        var quiet: [LocalDate] = []  // newest first
        for day in context.scoredClosedDays {
            if context.input.isActive(day.date) { break }
            quiet.append(day.date)
        }
        guard quiet.count >= 4, let first = quiet.last, let last = quiet.first else { return nil }
        return RiskFinding(
            severity: quiet.count >= 7 ? .high : .medium, windowFrom: first, windowTo: last,
            evidence: Evidence(dates: quiet.reversed()),
            explanation: "No client activity on the last \(quiet.count) scored days.")
    }
}
