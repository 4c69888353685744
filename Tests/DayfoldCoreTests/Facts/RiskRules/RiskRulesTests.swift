import Testing

@testable import DayfoldCore

/// The registry of risk rules: SPEC §5's six signals, each once, in the
/// order a relationship's rows are written.
@Suite struct RiskRulesTests {
    @Test func registryHoldsTheSpecsSixSignalsOnceEach() {
        let names = RiskRules.all.map(\.name)
        #expect(
            Set(names) == [
                "MISSED_DAYS", "ADHERENCE_DROP", "MISSED_CHECK_INS", "PAIN_REPORTED", "GONE_QUIET",
                "INTAKE_BELOW_TARGET",
            ])
        #expect(names.count == Set(names).count)
    }

    /// `RiskSignalCalculator` emits in registry order without sorting, so
    /// the registry itself must be in signal-name byte order.
    @Test func registryIsInSignalNameByteOrder() {
        let names = RiskRules.all.map(\.name)
        #expect(zip(names, names.dropFirst()).allSatisfy { bytesLess($0, $1) })
    }

    @Test func spanNamesOneDayOneMonthOrTwoMonths() throws {
        let march4 = try #require(LocalDate(year: 2026, month: 3, day: 4))
        #expect(RiskRules.span(march4, march4) == "Mar 4")
        #expect(RiskRules.span(march4, march4.adding(days: 2)) == "Mar 4–6")
        #expect(RiskRules.span(march4.adding(days: -5), march4.adding(days: -3)) == "Feb 27–Mar 1")
    }
}
