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
    public var defaultTargets: [String: Double] {
        didSet { defaultTargetAt = Self.byPosition(defaultTargets) }
    }
    /// goals.csv rows by user, then by metric name, in (effective_on, file
    /// order) order: one lookup per user and a step of an as-of series
    /// makes no key String per user and metric.
    var goals: [String: [String: [Goal]]] = [:]
    /// `defaultTargets` by metric position (`Metric.position`): a range
    /// reads its metric's default without hashing the metric's name.
    private(set) var defaultTargetAt: [Double?] = []

    public init(windows: [Int], defaultTargets: [String: Double], goals: [Goal] = []) {
        self.windows = windows
        self.defaultTargets = defaultTargets
        defaultTargetAt = Self.byPosition(defaultTargets)
        for goal in goals { self.goals[goal.userID, default: [:]][goal.metric, default: []].append(goal) }
        for (user, metrics) in self.goals {
            for metric in metrics.keys {
                self.goals[user]?[metric]?.sort { ($0.effectiveOn, $0.order) < ($1.effectiveOn, $1.order) }
            }
        }
    }

    private static func byPosition(_ targets: [String: Double]) -> [Double?] {
        var byPosition = [Double?](repeating: nil, count: HealthMetric.registry.count)
        for metric in Metric.allCases { byPosition[Int(metric.position)] = targets[metric.rawValue] }
        return byPosition
    }
}

public enum ProgressCalculator {
    static func requestedSource(_ drop: IngestedDrop, _ user: String, _ metric: Metric) -> ProgressSource {
        guard metric.isDietary else { return .health }
        return drop.preferences[user] == "APPLE_HEALTH" ? .health : .journal
    }

    /// The goals of one user and metric, in (effective_on, file order) order.
    static func goals(_ options: ProgressOptions, _ user: String, _ metric: Metric) -> [Goal] {
        options.goals[user]?[metric.rawValue] ?? []
    }

    /// The Progress row for one user, metric and date range. `goals`: the
    /// user's goals for `metric` when the caller has looked them up already;
    /// `failed`: whether the user's health import failed, when the caller
    /// knows it; `labels`: coverage labels made already (a run's ranges
    /// share a few dozen).
    static func range(
        _ drop: IngestedDrop, _ table: ClientTable, _ metric: Metric, from: LocalDate, to: LocalDate,
        options: ProgressOptions, goals knownGoals: [Goal]? = nil, failed knownFailed: Bool? = nil,
        labels: inout CoverageLabels
    ) -> ProgressRange {
        // The table carries its user's dietary preference (`requestedSource`).
        let requested = table.requestedSource(for: metric)
        let data = WindowFigures(table, metric, requested, from: from, to: to)
        let other = data.count > 0 ? nil : WindowFigures(table, metric, requested.other, from: from, to: to)
        return row(
            drop, table, metric, from: from, to: to, requested: requested, data: data, other: other,
            options: options, goals: knownGoals ?? goals(options, table.user, metric),
            failed: knownFailed ?? drop.failedImports.contains(table.user), labels: &labels)
    }

    /// A window's row from its figures: `data` from the requested source,
    /// `other` from the other source (needed only when `data` has no day).
    private static func row(
        _ drop: IngestedDrop, _ table: ClientTable, _ metric: Metric, from: LocalDate, to: LocalDate,
        requested: ProgressSource, data requestedData: WindowFigures, other: WindowFigures?,
        options: ProgressOptions, goals: [Goal], failed importFailed: Bool, labels: inout CoverageLabels
    ) -> ProgressRange {
        let failed = requested == .health && importFailed
        var chosen: ProgressSource?
        var fallback: String?
        var data = requestedData
        if data.count > 0 {
            chosen = requested
        } else {
            fallback = failed ? "REQUESTED_SOURCE_FAILED" : "REQUESTED_SOURCE_NO_DATA"
            if let other, other.count > 0 {
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
        let goal = goals.last { $0.effectiveOn <= to }
        if let goal {
            row.target = goal.target
            row.targetProvenance = goal.confirmed ? "CONFIRMED" : "SUGGESTED"
        } else if let target = options.defaultTargetAt[Int(metric.position)] {
            row.target = target
            row.targetProvenance = "SUGGESTED"
        }
        if let average = row.average, let target = row.target, target != 0 {
            row.percentOfTarget = average / target * 100
        }
        return row
    }

    /// Every row of `progress_ranges` (SPEC §6): per user, metric and
    /// window, each window ending on the user's today.
    public static func ranges(_ drop: IngestedDrop, tables: [ClientTable], options: ProgressOptions) -> [ProgressRange]
    {
        var rows: [ProgressRange] = []
        rows.reserveCapacity(tables.count * Metric.allCases.count * options.windows.count)
        // Shortest first, so each window's start is at or before the one before's.
        let windows = Array(Set(options.windows)).sorted()
        var labels = CoverageLabels()
        for table in tables {
            let failed = drop.failedImports.contains(table.user)
            let userGoals = options.goals[table.user]
            let starts = windows.map { table.today.adding(days: -($0 - 1)) }
            for metric in Metric.allCases {
                let goals = userGoals?[metric.rawValue] ?? []
                let requested = table.requestedSource(for: metric)
                let data = WindowFigures.nested(table, metric, requested, starts: starts, to: table.today)
                let other =
                    data.allSatisfy { $0.count > 0 }
                    ? nil : WindowFigures.nested(table, metric, requested.other, starts: starts, to: table.today)
                for index in windows.indices {
                    rows.append(
                        row(
                            drop, table, metric, from: starts[index], to: table.today, requested: requested,
                            data: data[index], other: other?[index], options: options, goals: goals, failed: failed,
                            labels: &labels))
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

        init() {}

        init(_ table: ClientTable, _ metric: Metric, _ source: ProgressSource, from: LocalDate, to: LocalDate) {
            table.forEachValue(metric, source, from: from, through: to) { _, value in add(value) }
        }

        mutating func add(_ value: Double) {
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

        /// The figures of the windows from each of `starts` (each at or
        /// before the one before it) through `to`, in one pass over the days
        /// of the longest: a day is added to every window it lies in, so
        /// each window still adds its own days in date order from its own
        /// start and its sum is the one a pass of its own would make (a
        /// user's 1-, 7-, 30- and 90-day windows were four passes).
        static func nested(
            _ table: ClientTable, _ metric: Metric, _ source: ProgressSource, starts: [LocalDate], to: LocalDate
        ) -> [WindowFigures] {
            var figures = [WindowFigures](repeating: WindowFigures(), count: starts.count)
            guard let earliest = starts.last else { return figures }
            // Windows `first...` hold the current day.
            var first = starts.count - 1
            table.forEachValue(metric, source, from: earliest, through: to) { date, value in
                while first > 0 && starts[first - 1] <= date { first -= 1 }
                for index in first..<starts.count { figures[index].add(value) }
            }
            return figures
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
