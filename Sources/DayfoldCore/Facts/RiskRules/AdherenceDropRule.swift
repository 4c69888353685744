/// ADHERENCE_DROP (SPEC §5): the mean adherence of the 7 dates ending at
/// the latest closed day (3 or more with data) minus that of the 28 dates
/// before them (7 or more with data); −0.25 or less → MEDIUM, −0.40 or
/// less → HIGH, both with the 1e-9 tolerance.
struct AdherenceDropRule: RiskRule {
    /// `{"prior_days":28,"prior_mean":1,"recent_days":7,"recent_mean":0.5}`;
    /// means rounded to 6 decimals.
    struct Evidence: RiskEvidence, Equatable {
        var priorDays: Int
        var priorMean: Double
        var recentDays: Int
        var recentMean: Double

        func write(to writer: inout EvidenceWriter) {
            writer.field("prior_days", priorDays)
            writer.field("prior_mean", priorMean)
            writer.field("recent_days", recentDays)
            writer.field("recent_mean", recentMean)
        }
    }

    var name: String { "ADHERENCE_DROP" }

    func evaluate(_ context: SignalContext) -> RiskFinding<Evidence>? {
        let lastClosed = context.lastClosed
        let recentStart = lastClosed.adding(days: -7)
        let priorStart = lastClosed.adding(days: -35)
        let days = context.input.days
        // One pass, each window's values in the days' order (their sums' order).
        var recent: [Double] = []
        var prior: [Double] = []
        for day in days where day.date > priorStart && day.date <= lastClosed {
            guard let adherence = day.adherence else { continue }
            if day.date > recentStart { recent.append(adherence) } else { prior.append(adherence) }
        }
        guard recent.count >= 3 && prior.count >= 7 else { return nil }
        let recentMean = recent.reduce(0, +) / Double(recent.count)
        let priorMean = prior.reduce(0, +) / Double(prior.count)
        let drop = recentMean - priorMean
        let severity: RiskSeverity
        if drop <= -0.40 + RiskRules.tolerance {
            severity = .high
        } else if drop <= -0.25 + RiskRules.tolerance {
            severity = .medium
        } else {
            return nil
        }
        return RiskFinding(
            severity: severity, windowFrom: lastClosed.adding(days: -34), windowTo: lastClosed,
            evidence: Evidence(
                priorDays: prior.count, priorMean: priorMean, recentDays: recent.count, recentMean: recentMean),
            explanation:
                "Adherence over the last 7 days fell \(formatNumber((-drop * 100).rounded())) points below the previous 4 weeks."
        )
    }
}
