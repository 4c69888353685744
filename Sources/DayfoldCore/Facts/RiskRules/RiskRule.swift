/// How urgent a risk signal is (SPEC §5: LOW|MEDIUM|HIGH); the raw value is
/// the text `risk_signals.severity` holds.
public enum RiskSeverity: String, Sendable {
    case low = "LOW"
    case medium = "MEDIUM"
    case high = "HIGH"
}

/// What one rule found for one relationship: a `risk_signals` row without
/// the keys (relationship, as-of date) and the signal name, which the rule
/// and `SignalContext` supply.
struct RiskFinding<Evidence: RiskEvidence>: Sendable {
    var severity: RiskSeverity
    /// The first and last dates the evidence spans.
    var windowFrom: LocalDate
    var windowTo: LocalDate
    var evidence: Evidence
    var explanation: String
}

/// One rule of SPEC §5's table. A rule is a pure function of one
/// relationship's inputs; it raises at most one signal (one row per signal
/// and relationship), and none when it does not reach its lowest severity.
///
/// To add one: a `…Rule.swift` in this folder with the rule, its `Evidence`
/// and its sentence, and an entry in `RiskRules.all`.
protocol RiskRule: Sendable {
    associatedtype Evidence: RiskEvidence
    /// The `signal` column's value, e.g. "MISSED_DAYS".
    var name: String { get }
    /// The rule's finding, or nil when it raises no signal.
    func evaluate(_ context: SignalContext) -> RiskFinding<Evidence>?
}

extension RiskRule {
    /// The rule's `risk_signals` row, if any. Evidence becomes text here and
    /// nowhere else, through `EvidenceWriter`.
    func signal(_ context: SignalContext) -> RiskSignal? {
        guard let finding = evaluate(context) else { return nil }
        return RiskSignal(
            relationship: context.input.relationship, asOfDate: context.input.today, signal: name,
            severity: finding.severity.rawValue, windowFrom: finding.windowFrom, windowTo: finding.windowTo,
            evidence: EvidenceWriter.json(finding.evidence), explanation: finding.explanation)
    }
}

/// One relationship's `SignalInputs` and what several rules derive from
/// them, computed once rather than once per rule.
struct SignalContext {
    var input: SignalInputs
    /// today − 2: the latest day whose deadline has passed ("closed").
    var lastClosed: LocalDate
    /// Closed days with something scored that are not OPEN, newest first:
    /// what MISSED_DAYS and GONE_QUIET walk back over. Lazy: both stop after
    /// a few days, and a copy of every day was most of the signals' time.
    var scoredClosedDays: LazyFilterSequence<ReversedCollection<[RelationshipDay]>>

    init(_ input: SignalInputs) {
        self.input = input
        let lastClosed = input.today.adding(days: -2)
        self.lastClosed = lastClosed
        scoredClosedDays = input.days.reversed().lazy.filter {
            $0.date <= lastClosed && $0.scored > 0 && $0.state != .open
        }
    }
}
