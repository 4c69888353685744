import Testing

@testable import DayfoldCore

/// `EvidenceWriter` writes each rule's evidence as the exact bytes
/// `risk_signals.evidence` has always held: keys in byte order, no spaces,
/// means rounded to 6 decimals with integers as integers, dates as ISO
/// text, ids escaped as JSON strings.
@Suite struct EvidenceWriterTests {
    static let march = (1...31).compactMap { LocalDate(year: 2026, month: 3, day: $0) }

    static let cases: [(any RiskEvidence, String)] = [
        (
            MissedDaysRule.Evidence(dates: [march[16], march[17]]),
            #"{"count":2,"dates":["2026-03-17","2026-03-18"]}"#
        ),
        (
            AdherenceDropRule.Evidence(priorDays: 28, priorMean: 1, recentDays: 7, recentMean: 0.5),
            #"{"prior_days":28,"prior_mean":1,"recent_days":7,"recent_mean":0.5}"#
        ),
        (
            AdherenceDropRule.Evidence(priorDays: 26, priorMean: 13.0 / 14, recentDays: 3, recentMean: 2.0 / 3),
            #"{"prior_days":26,"prior_mean":0.928571,"recent_days":3,"recent_mean":0.666667}"#
        ),
        (
            AdherenceDropRule.Evidence(priorDays: 7, priorMean: 0.1 + 0.2, recentDays: 3, recentMean: 1e-7),
            #"{"prior_days":7,"prior_mean":0.3,"recent_days":3,"recent_mean":0}"#
        ),
        (
            MissedCheckInsRule.Evidence(taskIDs: ["c-1", #"c"2\"#]),
            #"{"count":2,"task_ids":["c-1","c\"2\\"]}"#
        ),
        (
            PainReportedRule.Evidence(reasons: ["INJURY", "PAIN"], taskIDs: ["p1", "p\u{1}2"]),
            #"{"count":2,"reasons":["INJURY","PAIN"],"task_ids":["p1","p\u00012"]}"#
        ),
        (
            GoneQuietRule.Evidence(dates: [march[0], march[1], march[2], march[3]]),
            #"{"count":4,"dates":["2026-03-01","2026-03-02","2026-03-03","2026-03-04"]}"#
        ),
        (
            IntakeBelowTargetRule.Evidence(
                averageKcal: 4000.0 / 3, daysWithData: 5, source: "LOCAL_JOURNAL", targetKcal: 2000),
            #"{"average_kcal":1333.333333,"days_with_data":5,"source":"LOCAL_JOURNAL","target_kcal":2000}"#
        ),
        (
            IntakeBelowTargetRule.Evidence(averageKcal: 1e18, daysWithData: 4, source: "HEALTH", targetKcal: 1e19),
            #"{"average_kcal":1e+18,"days_with_data":4,"source":"HEALTH","target_kcal":1e+19}"#
        ),
    ]

    @Test(arguments: cases)
    func writesTheEvidenceBytesOfEachRule(evidence: any RiskEvidence, expected: String) {
        #expect(EvidenceWriter.json(evidence) == expected)
    }

    /// A rule's row carries the rule's name, the relationship's keys and its
    /// finding, with the evidence written by `EvidenceWriter`.
    @Test func ruleRowCarriesNameKeysAndWrittenEvidence() throws {
        let today = Self.march[19]
        let input = SignalInputs(
            relationship: 7, today: today, days: [], checkIns: [],
            skips: [(today.adding(days: -1), "p1", "PAIN"), (today, "p2", "INJURY")], activeDays: [], intake: nil)
        let signal = try #require(PainReportedRule().signal(SignalContext(input)))
        #expect(signal.relationship == 7)
        #expect(signal.asOfDate == today)
        #expect(signal.signal == "PAIN_REPORTED")
        #expect(signal.severity == "HIGH")
        #expect(signal.windowFrom == today.adding(days: -1))
        #expect(signal.windowTo == today)
        #expect(signal.evidence == #"{"count":2,"reasons":["INJURY","PAIN"],"task_ids":["p1","p2"]}"#)
        #expect(signal.explanation == "Skipped 2 tasks because of pain or injury (Mar 19–20).")
    }
}
