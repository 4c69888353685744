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
    /// (one lookup per metric, not per window).
    static func range(
        _ drop: IngestedDrop, _ table: ClientTable, _ metric: Metric, from: LocalDate, to: LocalDate,
        options: ProgressOptions, goals knownGoals: [Goal]? = nil
    ) -> ProgressRange {
        let requested = requestedSource(drop, table.user, metric)
        func values(_ source: ProgressSource) -> [Double] {
            var result: [Double] = []
            table.forEachValue(metric, source, from: from, through: to) { result.append($0) }
            return result
        }
        let failed = requested == .health && drop.failedImports.contains(table.user)
        let reason = failed ? "REQUESTED_SOURCE_FAILED" : "REQUESTED_SOURCE_NO_DATA"
        var chosen: ProgressSource?
        var fallback: String?
        var data = values(requested)
        if !data.isEmpty {
            chosen = requested
        } else {
            fallback = reason
            let other = values(requested.other)
            if !other.isEmpty {
                chosen = requested.other
                data = other
            }
        }
        let windowDays = Int(to.days - from.days) + 1
        var row = ProgressRange(
            user: table.user, metric: metric, windowDays: windowDays, windowFrom: from, windowTo: to,
            requestedSource: requested, source: chosen?.rawValue ?? "NONE", fallbackReason: fallback,
            daysWithData: data.count, coverageLabel: "No data yet")
        if let chosen, !data.isEmpty {
            let sum = data.reduce(0, +)
            row.total = metric.descriptor.hasProgressTotal ? sum : nil
            row.average = sum / Double(data.count)
            row.min = data.min()
            row.max = data.max()
            row.coverageLabel = "\(data.count) of \(windowDays) days with data · \(chosen.label)"
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
        let windows = Array(Set(options.windows)).sorted()
        for table in tables {
            for metric in Metric.allCases {
                let goals = goals(options, table.user, metric)
                for window in windows {
                    rows.append(
                        range(
                            drop, table, metric, from: table.today.adding(days: -(window - 1)), to: table.today,
                            options: options, goals: goals))
                }
            }
        }
        return rows
    }
}
