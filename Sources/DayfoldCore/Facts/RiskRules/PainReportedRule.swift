/// PAIN_REPORTED (SPEC §5): a SKIPPED outcome with reason PAIN or INJURY
/// on a date in [today − 6, today], open days included (pain is reported
/// at once); always HIGH.
struct PainReportedRule: RiskRule {
    /// `{"count":1,"reasons":["PAIN"],"task_ids":["t1"]}`; count is the
    /// number of ids.
    struct Evidence: RiskEvidence, Equatable {
        /// The distinct reasons, sorted.
        var reasons: [String]
        /// By date, oldest first.
        var taskIDs: [String]

        func write(to writer: inout EvidenceWriter) {
            writer.field("count", taskIDs.count)
            writer.field("reasons", reasons)
            writer.field("task_ids", taskIDs)
        }
    }

    var name: String { "PAIN_REPORTED" }

    func evaluate(_ context: SignalContext) -> RiskFinding<Evidence>? {
        let today = context.input.today
        let weekStart = today.adding(days: -6)
        let pains = context.input.skips.filter {
            $0.0 >= weekStart && $0.0 <= today && ($0.2 == "PAIN" || $0.2 == "INJURY")
        }.sorted { $0.0 < $1.0 }
        guard let first = pains.first, let last = pains.last else { return nil }
        let tasks = pains.count == 1 ? "a task" : "\(pains.count) tasks"
        return RiskFinding(
            severity: .high, windowFrom: first.0, windowTo: last.0,
            evidence: Evidence(
                reasons: Set(pains.compactMap(\.2)).sorted(), taskIDs: pains.map { context.input.taskID($0.1) }),
            explanation: "Skipped \(tasks) because of pain or injury (\(RiskRules.span(first.0, last.0))).")
    }
}
