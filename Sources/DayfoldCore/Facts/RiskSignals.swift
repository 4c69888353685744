/// One row of `risk_signals` (SPEC §5).
public struct RiskSignal: Sendable {
    public var relationship: Int
    public var asOfDate: LocalDate
    public var signal: String
    /// LOW, MEDIUM or HIGH: a `RiskSeverity`'s raw value.
    public var severity: String
    public var windowFrom: LocalDate
    public var windowTo: LocalDate
    /// Compact JSON: counts, dates, ids, reason codes; never free text
    /// (the rule's `RiskEvidence`, written by `EvidenceWriter`).
    public var evidence: String
    public var explanation: String
}

/// Everything the signal rules look at for one relationship.
public struct SignalInputs {
    public var relationship: Int
    public var today: LocalDate
    public var days: [RelationshipDay]
    /// CHECK_IN outcomes (date, task, outcome), any order.
    public var checkIns: [(LocalDate, Int, OutcomeKind)]
    /// In-time or not, SKIPPED outcomes (date, task, reason).
    public var skips: [(LocalDate, Int, String?)]
    /// The id of a task of `checkIns` and `skips`. Ids are read only for
    /// the tasks a rule names or breaks a tie by: made for every check-in
    /// and skip, they were most of the signals' time in an as-of series.
    public var taskID: (Int) -> String
    /// Local dates with client activity.
    public var activeDays: Set<LocalDate>
    /// More local dates with client activity (the client's journal days,
    /// kept apart so that a run does not build the union of two sets for
    /// every relationship).
    var moreActiveDays: Set<LocalDate> = []
    /// Energy intake check, computed by the Progress rules (nil: no signal possible).
    public var intake: IntakeCheck?

    init(
        relationship: Int, today: LocalDate, days: [RelationshipDay], checkIns: [(LocalDate, Int, OutcomeKind)],
        skips: [(LocalDate, Int, String?)], taskID: @escaping (Int) -> String, activeDays: Set<LocalDate>,
        moreActiveDays: Set<LocalDate> = [], intake: IntakeCheck?
    ) {
        self.relationship = relationship
        self.today = today
        self.days = days
        self.checkIns = checkIns
        self.skips = skips
        self.taskID = taskID
        self.activeDays = activeDays
        self.moreActiveDays = moreActiveDays
        self.intake = intake
    }

    /// Whether the client was active on `date`.
    func isActive(_ date: LocalDate) -> Bool { activeDays.contains(date) || moreActiveDays.contains(date) }

    /// Inputs whose tasks are named by their ids.
    public init(
        relationship: Int, today: LocalDate, days: [RelationshipDay], checkIns: [(LocalDate, String, OutcomeKind)],
        skips: [(LocalDate, String, String?)], activeDays: Set<LocalDate>, intake: IntakeCheck?
    ) {
        let ids = checkIns.map(\.1) + skips.map(\.1)
        self.init(
            relationship: relationship, today: today, days: days,
            checkIns: checkIns.enumerated().map { ($1.0, $0, $1.2) },
            skips: skips.enumerated().map { ($1.0, checkIns.count + $0, $1.2) }, taskID: { ids[$0] },
            activeDays: activeDays, intake: intake)
    }
}

public struct IntakeCheck: Sendable {
    public var from: LocalDate
    public var to: LocalDate
    public var daysWithData: Int
    public var average: Double?
    public var target: Double?
    public var confirmed: Bool
    public var source: String
}

/// Raises SPEC §5's risk signals: each rule of `RiskRules.all` (one file
/// per rule in `RiskRules/`) on one relationship's inputs.
public enum RiskSignalCalculator {
    /// One relationship's signals, in `RiskRules.all`'s order (by signal name).
    public static func signals(_ input: SignalInputs) -> [RiskSignal] {
        let context = SignalContext(input)
        var signals: [RiskSignal] = []
        for rule in RiskRules.all {
            if let signal = rule.signal(context) { signals.append(signal) }
        }
        return signals
    }
}
