/// The rows of the published tables the HTML report shows, as the report
/// reads them: copied from the typed columns of the snapshots' row groups
/// (`HTMLReportCollector`), never computed again. Ids, dates, counts,
/// numbers and codes only (SPEC §7), plus the explanation and coverage
/// texts dayfold itself writes into `risk_signals` and `progress_ranges`.
struct ReportRows: Sendable {
    /// A `streaks` row: one per relationship, in the table's order (relationship id bytes).
    struct Streak: Sendable {
        var relationshipID: String
        var clientUserID: String
        var coachUserID: String?
        var asOfDate: LocalDate
        var currentDays: Int64
        var adherence7: Double?
        var adherence30: Double?
        var adherence90: Double?
    }

    /// A `risk_signals` row.
    struct Signal: Sendable {
        var relationshipID: String
        var clientUserID: String
        var coachUserID: String?
        var signal: String
        var severity: String
        var windowFrom: LocalDate
        var windowTo: LocalDate
        var explanation: String
    }

    /// A `relationship_days` row's date, adherence and `day_state`.
    struct Day: Sendable {
        var date: LocalDate
        var adherence: Double?
        var state: String
    }

    /// A `progress_ranges` row.
    struct Progress: Sendable {
        var userID: String
        var metric: String
        var windowDays: Int64
        var daysWithData: Int64
        var average: Double?
        var target: Double?
        var percentOfTarget: Double?
        var coverageLabel: String
    }

    /// A `push_delivery_health` row's day and counts.
    struct PushHealth: Sendable {
        var day: LocalDate
        var deliveries: Int64
        var delivered: Int64
        var failed: Int64
        /// `failed_<class>` in the table's column order (`PushErrorClass`).
        var failedByClass: [Int64]
    }

    var streaks: [Streak] = []
    var signals: [Signal] = []
    /// Relationship id → its days from the report's first calendar day on, by date.
    var days: [String: [Day]] = [:]
    var progress: [Progress] = []
    var pushHealth: [PushHealth] = []
    /// The error classes of `failed_<class>`, in column order.
    var pushErrorClasses: [String] = []
    /// Whether `push_delivery_health` was written (the drop has `push/`).
    var hasPush = false
}
