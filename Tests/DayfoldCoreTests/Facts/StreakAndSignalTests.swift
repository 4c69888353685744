import Testing

@testable import DayfoldCore

/// The pure functions of the facts stage, on day tables built by hand.
@Suite struct StreakAndSignalTests {
    static let today = LocalDate(year: 2026, month: 3, day: 20) ?? LocalDate(days: 0)

    /// Days ending at today − 2 (the latest closed day), oldest first; each
    /// entry is (completed, skipped, missed).
    static func days(_ counts: [(Int, Int, Int)], threshold: Double = 0.8) -> [RelationshipDay] {
        var streak = 0
        return counts.enumerated().map { offset, count in
            var day = RelationshipDay(
                relationship: 0, date: today.adding(days: -2 - (counts.count - 1 - offset)), zone: 0)
            (day.completed, day.skipped, day.missed) = count
            if day.scored == 0 {
                day.state = .neutral
            } else if let adherence = day.adherence, adherence >= threshold {
                day.state = .kept
                streak += 1
            } else {
                day.state = .broken
                streak = 0
            }
            day.streakLength = streak
            return day
        }
    }

    static func signals(_ days: [RelationshipDay], active: Set<LocalDate>? = nil) -> [RiskSignal] {
        RiskSignalCalculator.signals(
            SignalInputs(
                relationship: 0, today: today, days: days, checkIns: [], skips: [],
                activeDays: active ?? Set(days.map(\.date)), intake: nil))
    }

    @Test func restDaysCarryTheStreakAndTiesKeepTheEarliest() throws {
        let table = Self.days([(1, 0, 0), (0, 0, 0), (1, 0, 0), (0, 0, 1), (1, 0, 0), (1, 0, 0)])
        #expect(table.map(\.streakLength) == [1, 1, 2, 0, 1, 2])
        let summary = try #require(StreakCalculator.summary(table, relationship: 0, today: Self.today))
        #expect(summary.longestDays == 2)
        #expect(summary.longestStart == table[0].date)
        #expect(summary.longestEnd == table[2].date)
        #expect(summary.currentDays == 2)
        #expect(summary.currentStart == table[4].date)
    }

    @Test func adherenceIsNullWhenNothingWasScored() throws {
        let table = Self.days([(0, 0, 0), (0, 0, 0)])
        #expect(table.allSatisfy { $0.adherence == nil })
        let summary = try #require(StreakCalculator.summary(table, relationship: 0, today: Self.today))
        #expect(summary.adherence7 == nil)
        #expect(summary.currentDays == 0)
    }

    @Test(arguments: [(1, nil), (2, "MEDIUM"), (3, "HIGH")] as [(Int, String?)])
    func missedDaysSeverity(missedDays: Int, severity: String?) {
        let table = Self.days([(1, 0, 0)] + Array(repeating: (0, 0, 2), count: missedDays))
        let signal = Self.signals(table).first { $0.signal == "MISSED_DAYS" }
        #expect(signal?.severity == severity)
    }

    @Test(
        arguments: [
            (-0.25, "MEDIUM"), (-0.25 - 1e-12, "MEDIUM"), (-0.25 + 1e-12, "MEDIUM"), (-0.2499, nil), (-0.40, "HIGH"),
        ]
            as [(Double, String?)])
    func adherenceDropThresholdsUseTheTolerance(drop: Double, severity: String?) {
        // 28 prior days at 1.0, then 7 days at 1 + drop (days scored out of a large task count).
        var table = Self.days(Array(repeating: (1, 0, 0), count: 35))
        for index in 28..<35 {
            // adherence = 1 + drop exactly: completed / scored.
            table[index].completed = Int(((1 + drop) * 1_000_000_000_000).rounded())
            table[index].missed = 1_000_000_000_000 - table[index].completed
        }
        let signal = Self.signals(table).first { $0.signal == "ADHERENCE_DROP" }
        #expect(signal?.severity == severity, "drop \(drop)")
        if let signal {
            #expect(signal.windowFrom == Self.today.adding(days: -36))
            #expect(signal.windowTo == Self.today.adding(days: -2))
        }
    }

    @Test(arguments: [(3, nil), (4, "MEDIUM"), (7, "HIGH")] as [(Int, String?)])
    func goneQuietCountsScoredDaysWithoutActivity(quietDays: Int, severity: String?) {
        let table = Self.days(Array(repeating: (1, 0, 0), count: 10) + Array(repeating: (0, 0, 1), count: quietDays))
        let active = Set(table.prefix(10).map(\.date))
        let signal = Self.signals(table, active: active).first { $0.signal == "GONE_QUIET" }
        #expect(signal?.severity == severity)
    }

    @Test func intakeBelowTargetNeedsAConfirmedTargetAndFourDays() {
        let from = Self.today.adding(days: -7)
        let to = Self.today.adding(days: -1)
        func signal(_ check: IntakeCheck) -> RiskSignal? {
            RiskSignalCalculator.signals(
                SignalInputs(
                    relationship: 0, today: Self.today, days: [], checkIns: [], skips: [], activeDays: [], intake: check
                )
            ).first
        }
        let low = IntakeCheck(
            from: from, to: to, daysWithData: 4, average: 1000, target: 2000, confirmed: true, source: "LOCAL_JOURNAL")
        #expect(signal(low)?.severity == "LOW")
        var suggested = low
        suggested.confirmed = false
        #expect(signal(suggested) == nil)
        var exactlySixty = low
        exactlySixty.average = 1200
        #expect(signal(exactlySixty) == nil)
        var threeDays = low
        threeDays.daysWithData = 3
        #expect(signal(threeDays) == nil)
    }

    /// The intake sentence writes its kcal without an integer conversion:
    /// `Int(target.rounded())` trapped for a target of 9.3e18 or more (ingest
    /// now rejects such a target, but the rule must not trap on any double).
    @Test func intakeSentenceWritesHugeNumbersWithoutTrapping() {
        let check = IntakeCheck(
            from: Self.today.adding(days: -7), to: Self.today.adding(days: -1), daysWithData: 4, average: 1e18,
            target: 1e19, confirmed: true, source: "LOCAL_JOURNAL")
        let signal = RiskSignalCalculator.signals(
            SignalInputs(
                relationship: 0, today: Self.today, days: [], checkIns: [], skips: [], activeDays: [], intake: check)
        ).first
        #expect(
            signal?.explanation
                == "Ate about 1e+18 kcal a day over 4 logged days, under 60% of the confirmed 1e+19 kcal target.")
    }
}
