/// MISSED_CHECK_INS (SPEC §5): walking back over check-ins up to today (by
/// date, then task id), the MISSED ones before the first that is not;
/// 2 or more → HIGH.
struct MissedCheckInsRule: RiskRule {
    /// `{"count":2,"task_ids":["t1","t2"]}`; count is the number of ids.
    struct Evidence: RiskEvidence, Equatable {
        /// Oldest first.
        var taskIDs: [String]

        func write(to writer: inout EvidenceWriter) {
            writer.field("count", taskIDs.count)
            writer.field("task_ids", taskIDs)
        }
    }

    var name: String { "MISSED_CHECK_INS" }

    func evaluate(_ context: SignalContext) -> RiskFinding<Evidence>? {
        let today = context.input.today
        // Newest first; on one date the greater id (in byte order) first.
        let taskID = context.input.taskID
        let checkIns = context.input.checkIns.filter { $0.0 <= today }.sorted {
            $0.0 != $1.0 ? $0.0 > $1.0 : bytesLess(taskID($1.1), taskID($0.1))
        }
        var missed: [(LocalDate, Int)] = []
        for checkIn in checkIns {
            guard checkIn.2 == .missed else { break }
            missed.append((checkIn.0, checkIn.1))
        }
        guard missed.count >= 2, let first = missed.last, let last = missed.first else { return nil }
        return RiskFinding(
            severity: .high, windowFrom: first.0, windowTo: last.0,
            evidence: Evidence(taskIDs: missed.reversed().map { taskID($0.1) }),
            explanation: "Missed the last \(missed.count) check-ins (\(RiskRules.span(first.0, last.0))).")
    }
}
