/// The risk rules of SPEC §5 and what they share.
enum RiskRules {
    /// Every rule, in the order their rows are written for a relationship:
    /// by signal name in byte order (the order `risk_signals` lists a
    /// relationship's signals in), so a new rule goes in by its name.
    static let all: [any RiskRule] = [
        AdherenceDropRule(),
        GoneQuietRule(),
        IntakeBelowTargetRule(),
        MissedCheckInsRule(),
        MissedDaysRule(),
        PainReportedRule(),
    ]

    /// A value within this of a threshold counts as at it (SPEC §9), so a
    /// drop that is −0.25 up to floating-point rounding is still MEDIUM.
    static let tolerance = 1e-9

    private static let monthNames = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ]

    /// The dates in an explanation: "Mar 4–6", "Feb 27–Mar 1", "Mar 4".
    static func span(_ first: LocalDate, _ last: LocalDate) -> String {
        let (_, firstMonth, firstDay) = first.components
        let (_, lastMonth, lastDay) = last.components
        let start = "\(monthNames[firstMonth - 1]) \(firstDay)"
        if first == last { return start }
        if firstMonth == lastMonth { return "\(start)–\(lastDay)" }
        return "\(start)–\(monthNames[lastMonth - 1]) \(lastDay)"
    }
}
