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
    /// CHECK_IN outcomes (date, task id, outcome), any order.
    public var checkIns: [(LocalDate, String, OutcomeKind)]
    /// In-time or not, SKIPPED outcomes with their reason.
    public var skips: [(LocalDate, String, String?)]
    /// Local dates with client activity.
    public var activeDays: Set<LocalDate>
    /// Energy intake check, computed by the Progress rules (nil: no signal possible).
    public var intake: IntakeCheck?
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
