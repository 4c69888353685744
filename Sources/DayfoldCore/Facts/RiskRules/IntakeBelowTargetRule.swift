/// INTAKE_BELOW_TARGET (SPEC §5): the energy average over the 7 whole dates
/// ending yesterday (Progress's rules, in `IntakeCheck`) under 60% of a
/// CONFIRMED target, with 4 or more days with data; always LOW.
struct IntakeBelowTargetRule: RiskRule {
    /// `{"average_kcal":1000,"days_with_data":4,"source":"LOCAL_JOURNAL","target_kcal":2000}`;
    /// kcal rounded to 6 decimals.
    struct Evidence: RiskEvidence, Equatable {
        var averageKcal: Double
        var daysWithData: Int
        var source: String
        var targetKcal: Double

        func write(to writer: inout EvidenceWriter) {
            writer.field("average_kcal", averageKcal)
            writer.field("days_with_data", daysWithData)
            writer.field("source", source)
            writer.field("target_kcal", targetKcal)
        }
    }

    var name: String { "INTAKE_BELOW_TARGET" }

    func evaluate(_ context: SignalContext) -> RiskFinding<Evidence>? {
        guard let intake = context.input.intake, intake.confirmed, let target = intake.target, target > 0,
            let average = intake.average, intake.daysWithData >= 4, average / target < 0.6 - RiskRules.tolerance
        else { return nil }
        // formatNumber, not Int(…): a huge double must not trap.
        return RiskFinding(
            severity: .low, windowFrom: intake.from, windowTo: intake.to,
            evidence: Evidence(
                averageKcal: average, daysWithData: intake.daysWithData, source: intake.source, targetKcal: target),
            explanation:
                "Ate about \(formatNumber(average.rounded())) kcal a day over \(intake.daysWithData) logged days, under 60% of the confirmed \(formatNumber(target.rounded())) kcal target."
        )
    }
}
