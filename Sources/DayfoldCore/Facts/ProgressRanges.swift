/// Where a Progress number comes from (SPEC §6).
public enum ProgressSource: String, Sendable {
    case journal = "LOCAL_JOURNAL"
    case health = "APPLE_HEALTH"

    var other: ProgressSource { self == .journal ? .health : .journal }
    var label: String { self == .journal ? "from your meal log" : "from Apple Health" }
}

/// One row of `progress_ranges`.
public struct ProgressRange: Sendable {
    public var user: String
    public var metric: Metric
    public var windowDays: Int
    public var windowFrom: LocalDate
    public var windowTo: LocalDate
    public var requestedSource: ProgressSource
    public var source: String
    public var fallbackReason: String?
    public var daysWithData: Int
    public var total: Double?
    public var average: Double?
    public var min: Double?
    public var max: Double?
    public var target: Double?
    public var targetProvenance: String?
    public var percentOfTarget: Double?
    public var coverageLabel: String
}

public struct ProgressOptions: Sendable {
    public var windows: [Int]
    public var defaultTargets: [String: Double]
    /// goals.csv rows by "user|metric", in (effective_on, file order) order.
    var goals: [String: [Goal]] = [:]

    public init(windows: [Int], defaultTargets: [String: Double], goals: [Goal] = []) {
        self.windows = windows
        self.defaultTargets = defaultTargets
        for goal in goals { self.goals["\(goal.userID)|\(goal.metric)", default: []].append(goal) }
        for key in self.goals.keys {
            self.goals[key]?.sort { ($0.effectiveOn, $0.order) < ($1.effectiveOn, $1.order) }
        }
    }
}

public enum ProgressCalculator {
    static func requestedSource(_ drop: IngestedDrop, _ user: String, _ metric: Metric) -> ProgressSource {
        guard metric.isDietary else { return .health }
        return drop.preferences[user] == "APPLE_HEALTH" ? .health : .journal
    }

    /// The goals of one user and metric, in (effective_on, file order) order.
    static func goals(_ options: ProgressOptions, _ user: String, _ metric: Metric) -> [Goal] {
        options.goals["\(user)|\(metric.rawValue)"] ?? []
    }

    /// The Progress row for one user, metric and date range. `goals`: the
    /// user's goals for `metric` when the caller has looked them up already
    /// (one lookup per metric, not per window); `failed`: whether the user's
    /// health import failed, when the caller knows it; `labels`: coverage
    /// labels made already (a run's ranges share a few dozen).
    static func range(
        _ drop: IngestedDrop, _ table: ClientTable, _ metric: Metric, from: LocalDate, to: LocalDate,
        options: ProgressOptions, goals knownGoals: [Goal]? = nil, failed knownFailed: Bool? = nil,
        labels: inout CoverageLabels
    ) -> ProgressRange {
        // The table carries its user's dietary preference (`requestedSource`).
        let requested = metric.isDietary ? table.requestedDietarySource : .health
        let failed = requested == .health && (knownFailed ?? drop.failedImports.contains(table.user))
        let reason = failed ? "REQUESTED_SOURCE_FAILED" : "REQUESTED_SOURCE_NO_DATA"
        var chosen: ProgressSource?
        var fallback: String?
        var data = WindowFigures(table, metric, requested, from: from, to: to)
        if data.count > 0 {
            chosen = requested
        } else {
            fallback = reason
            let other = WindowFigures(table, metric, requested.other, from: from, to: to)
            if other.count > 0 {
                chosen = requested.other
                data = other
            }
        }
        let windowDays = Int(to.days - from.days) + 1
        var row = ProgressRange(
            user: table.user, metric: metric, windowDays: windowDays, windowFrom: from, windowTo: to,
            requestedSource: requested, source: chosen?.rawValue ?? "NONE", fallbackReason: fallback,
            daysWithData: data.count, coverageLabel: "No data yet")
        if let chosen, data.count > 0 {
            row.total = metric.descriptor.hasProgressTotal ? data.sum : nil
            row.average = data.sum / Double(data.count)
            row.min = data.min
            row.max = data.max
            row.coverageLabel = labels.label(days: data.count, of: windowDays, chosen)
        }
        let goal = (knownGoals ?? goals(options, table.user, metric)).last { $0.effectiveOn <= to }
        if let goal {
            row.target = goal.target
            row.targetProvenance = goal.confirmed ? "CONFIRMED" : "SUGGESTED"
        } else if let target = options.defaultTargets[metric.rawValue] {
            row.target = target
            row.targetProvenance = "SUGGESTED"
        }
        if let average = row.average, let target = row.target, target != 0 {
            row.percentOfTarget = average / target * 100
        }
        return row
    }

    public static func ranges(_ drop: IngestedDrop, tables: [ClientTable], options: ProgressOptions) -> [ProgressRange]
    {
        var rows: [ProgressRange] = []
        rows.reserveCapacity(tables.count * Metric.allCases.count * options.windows.count)
        let windows = Array(Set(options.windows)).sorted()
        var labels = CoverageLabels()
        for table in tables {
            let failed = drop.failedImports.contains(table.user)
            for metric in Metric.allCases {
                let goals = options.goals.isEmpty ? [] : goals(options, table.user, metric)
                for window in windows {
                    rows.append(
                        range(
                            drop, table, metric, from: table.today.adding(days: -(window - 1)), to: table.today,
                            options: options, goals: goals, failed: failed, labels: &labels))
                }
            }
        }
        return rows
    }

    /// A window's figures from one source, in date order: its count, its
    /// sum (added in date order, as SPEC §6's total is), its least and
    /// greatest value.
    struct WindowFigures {
        var count = 0
        var sum = 0.0
        var min = 0.0
        var max = 0.0

        init(_ table: ClientTable, _ metric: Metric, _ source: ProgressSource, from: LocalDate, to: LocalDate) {
            table.forEachValue(metric, source, from: from, through: to) { value in
                if count == 0 {
                    (min, max) = (value, value)
                } else {
                    // As `Sequence.min()` and `max()` choose.
                    if value < min { min = value }
                    if max < value { max = value }
                }
                sum += value
                count += 1
            }
        }
    }

    /// "N of W days with data · from …": one string per distinct label,
    /// shared by the rows that show it.
    struct CoverageLabels {
        private var made: [Int: String] = [:]

        mutating func label(days: Int, of windowDays: Int, _ source: ProgressSource) -> String {
            let key = (days << 33) | (windowDays << 1) | (source == .journal ? 0 : 1)
            if let known = made[key] { return known }
            let label = "\(days) of \(windowDays) days with data · \(source.label)"
            made[key] = label
            return label
        }
    }
}
