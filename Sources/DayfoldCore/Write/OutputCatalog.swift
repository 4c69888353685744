/// Every table dayfold publishes (SPEC §7, §11.3, §12), declared once: its
/// name (the snapshot `snapshots/<name>.parquet`), its CSV report if it has
/// one, whether only a drop with `push/` has it, whether an as-of series
/// keeps its history, how a partitioned or sharded run merges it, and how it
/// is built from a run's facts. The whole run, the partitioned run, a shard's
/// run, the merge and the as-of series all take their tables from here.
struct OutputTableSpec: Sendable {
    /// How the tables of partitions (or shards) become the whole run's.
    enum Merge: Sendable {
        /// Each partition writes its rows sorted by `keyColumns`; the merge
        /// interleaves the sorted parts.
        case sorted(keyColumns: [Int])
        /// Each partition's counts per group are summed (push summaries,
        /// whose groups span users), and the table built from the sums.
        case summed(@Sendable (PartitionSums) -> OutputTable)
    }

    /// What partitions count per group, for the `.summed` tables.
    struct PartitionSums: Sendable {
        var pushHealth: [PushHealthRow]
        var pushIntents: [PushIntentSummaryRow]
    }

    var name: String
    var report: String?
    var needsPush: Bool
    /// Written in `history/<name>/as_of_date=…/` at each step of a series.
    var history: Bool
    /// A whole run writes it from the task outcomes as soon as they are
    /// known, beside the rest of the facts (the largest table, it would
    /// otherwise finish alone at the end).
    var fromOutcomes = false
    /// Built from the risk signals alone of a run's facts: an as-of series
    /// computes a step's signals beside the writing of its other tables.
    var fromSignals = false
    var merge: Merge
    /// The DATE column whose months lay out the snapshot in blocks
    /// (`relationship_days`: its `snapshotLayout`); the merge of partitions
    /// writes the same blocks. nil: the snapshot is in the report's order.
    var snapshotMonthColumn: Int? = nil
    var build: @Sendable (RunResult) -> OutputTable

    /// The sort key columns of a `.sorted` table; nil for a summed one.
    var keyColumns: [Int]? {
        if case .sorted(let keys) = merge { return keys }
        return nil
    }
}

enum OutputCatalog {
    /// In the order runs start writing them: the largest first, so they do
    /// not start last and run alone.
    static let all: [OutputTableSpec] = [
        OutputTableSpec(
            name: "adherence_events", report: nil, needsPush: false, history: false, fromOutcomes: true,
            merge: .sorted(keyColumns: [2]), snapshotMonthColumn: 4, build: { ReportTables.adherenceEvents($0) }),
        OutputTableSpec(
            name: "relationship_days", report: "reports/coach_daily_summary.csv", needsPush: false, history: true,
            merge: .sorted(keyColumns: [0]), snapshotMonthColumn: 2, build: { ReportTables.relationshipDays($0) }),
        // Sorted by (day, delivery_id): a day's rows lie in every partition.
        OutputTableSpec(
            name: "push_deliveries", report: nil, needsPush: true, history: false, merge: .sorted(keyColumns: [10, 0]),
            snapshotMonthColumn: 10,
            build: { ReportTables.pushDeliveries($0) }),
        OutputTableSpec(
            name: "client_days", report: nil, needsPush: false, history: false, merge: .sorted(keyColumns: [0]),
            build: { ReportTables.clientDays($0) }),
        OutputTableSpec(
            name: "progress_ranges", report: "reports/progress_ranges.csv", needsPush: false, history: true,
            merge: .sorted(keyColumns: [0]), build: { ReportTables.progressRanges($0) }),
        OutputTableSpec(
            name: "risk_signals", report: "reports/risk_signals.csv", needsPush: false, history: true,
            fromSignals: true, merge: .sorted(keyColumns: [0]), build: { ReportTables.riskSignals($0) }),
        OutputTableSpec(
            name: "streaks", report: "reports/streaks.csv", needsPush: false, history: true,
            merge: .sorted(keyColumns: [0]), build: { ReportTables.streaks($0) }),
        OutputTableSpec(
            name: "reminder_effectiveness", report: "reports/reminder_effectiveness.csv", needsPush: true,
            history: false, merge: .sorted(keyColumns: [0]), build: { ReportTables.reminderEffectiveness($0) }),
        OutputTableSpec(
            name: "push_delivery_health", report: "reports/push_delivery_health.csv", needsPush: true, history: false,
            merge: .summed { ReportTables.pushDeliveryHealth(rows: PushSummaries.combine($0.pushHealth)) },
            build: { ReportTables.pushDeliveryHealth($0) }),
        OutputTableSpec(
            name: "push_intent_summary", report: "reports/push_intent_summary.csv", needsPush: true, history: false,
            merge: .summed { ReportTables.pushIntentSummary(rows: PushSummaries.combine($0.pushIntents)) },
            build: { ReportTables.pushIntentSummary($0) }),
    ]

    /// The tables of a run with (or without) push outputs (SPEC §11.3:
    /// with a `push/` folder, every push output, header only when empty).
    static func tables(push: Bool) -> [OutputTableSpec] { all.filter { push || !$0.needsPush } }

    /// The tables an as-of series keeps at every step (SPEC §12).
    static var history: [OutputTableSpec] { all.filter(\.history) }
}
