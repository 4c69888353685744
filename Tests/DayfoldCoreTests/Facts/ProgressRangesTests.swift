import Testing

@testable import DayfoldCore

/// Progress windows (SPEC §6) found in one pass per user, metric and source
/// give what a pass per window gives, to the bit.
@Suite struct ProgressRangesTests {
    static func date(_ day: Int) -> LocalDate {
        // 2026-03-01 + day; `LocalDate(year:month:day:)` is nil only for an impossible date.
        LocalDate(year: 2026, month: 3, day: 1)?.adding(days: day) ?? LocalDate(days: 0)
    }

    /// Days 0…4 with steps 1, 2, (none), 4, 8: the windows of 1, 2, 4 and 10
    /// days ending on day 4 hold {8}, {4, 8}, {2, 4, 8} and {1, 2, 4, 8}.
    @Test func nestedWindowsHoldTheirOwnDays() {
        var days = (0..<5).map { ClientDay(date: Self.date($0), zone: 0) }
        for (day, value) in [(0, 1.0), (1, 2.0), (3, 4.0), (4, 8.0)] { days[day].health[.steps] = value }
        let table = ClientTable(user: "u", today: Self.date(4), days: days, requestedDietarySource: .journal)
        let starts = [1, 2, 4, 10].map { Self.date(4).adding(days: -($0 - 1)) }
        let figures = ProgressCalculator.WindowFigures.nested(table, .steps, .health, starts: starts, to: Self.date(4))
        #expect(figures.map(\.count) == [1, 2, 3, 4])
        #expect(figures.map(\.sum) == [8, 12, 14, 15])
        #expect(figures.map(\.min) == [8, 4, 2, 1])
        #expect(figures.map(\.max) == [8, 8, 8, 8])
        // The journal gives no steps: every window is empty.
        let journal = ProgressCalculator.WindowFigures.nested(table, .steps, .journal, starts: starts, to: Self.date(4))
        #expect(journal.map(\.count) == [0, 0, 0, 0])
    }

    /// Sums of values whose floating-point total depends on where the adding
    /// starts (0.1 steps, a 1e16 day) are each window's own, in date order.
    @Test func eachWindowSumsInDateOrderFromItsOwnStart() {
        var days = (0..<120).map { ClientDay(date: Self.date($0), zone: 0) }
        for day in days.indices where day % 7 != 3 {
            days[day].health[.steps] = day == 25 ? 1e16 : 0.1 * Double(day % 13) + 1e-3 * Double(day)
        }
        let today = Self.date(119)
        let table = ClientTable(user: "u", today: today, days: days, requestedDietarySource: .journal)
        let windows = [1, 7, 30, 90, 100]
        let starts = windows.map { today.adding(days: -($0 - 1)) }
        let nested = ProgressCalculator.WindowFigures.nested(table, .steps, .health, starts: starts, to: today)
        for (index, start) in starts.enumerated() {
            let own = ProgressCalculator.WindowFigures(table, .steps, .health, from: start, to: today)
            var sum = 0.0
            var count = 0
            for day in days where day.date >= start {
                if let value = day.health[.steps] {
                    sum += value
                    count += 1
                }
            }
            #expect(nested[index].sum.bitPattern == own.sum.bitPattern && own.sum.bitPattern == sum.bitPattern)
            #expect(nested[index].count == count && own.count == count)
            #expect(nested[index].min == own.min && nested[index].max == own.max)
        }
        // The 100-day window (days 20…119) holds the 1e16 day 25; the 90-day one (30…119) does not.
        #expect(nested[4].max == 1e16 && nested[3].max < 2)
    }

    /// `ranges` (every window of every metric at once) gives each row what
    /// `range` (one window) gives: sources, fallbacks, figures and targets,
    /// for a journal user whose health steps fill some windows and not others.
    @Test func aUsersRowsAreEachWindowsOwnRow() {
        var days = (0..<40).map { ClientDay(date: Self.date($0), zone: 0) }
        for day in stride(from: 0, to: 30, by: 3) { days[day].health[.steps] = Double(1_000 + day) }
        for day in stride(from: 20, to: 40, by: 4) { days[day].journal[0] = 0.1 * Double(day) }
        days[39].health[.energyKcal] = 2_000
        let today = Self.date(39)
        let table = ClientTable(user: "u", today: today, days: days, requestedDietarySource: .journal)
        let drop = IngestedDrop(zones: ZoneCatalog())
        let options = ProgressOptions(
            windows: [30, 1, 7, 7], defaultTargets: ["steps": 8_000],
            goals: [
                Goal(
                    userID: "u", metric: "energy_kcal", target: 2_100, confirmed: true, effectiveOn: Self.date(2),
                    order: 0)
            ])
        let rows = ProgressCalculator.ranges(drop, tables: [table], options: options)
        #expect(rows.count == Metric.allCases.count * 3)
        var labels = ProgressCalculator.CoverageLabels()
        for row in rows {
            let own = ProgressCalculator.range(
                drop, table, row.metric, from: row.windowFrom, to: row.windowTo, options: options, labels: &labels)
            #expect(row.windowTo == today && row.windowDays == Int(today.days - row.windowFrom.days) + 1)
            #expect(row.source == own.source && row.fallbackReason == own.fallbackReason)
            #expect(row.daysWithData == own.daysWithData && row.total == own.total && row.average == own.average)
            #expect(row.min == own.min && row.max == own.max && row.coverageLabel == own.coverageLabel)
            #expect(row.target == own.target && row.targetProvenance == own.targetProvenance)
            #expect(row.percentOfTarget == own.percentOfTarget)
        }
        // Hand-worked: steps on days 0, 3, …, 27 lie in the 30-day window
        // (days 10…39) on 12, 15, 18, 21, 24, 27; none in the 7-day window,
        // which has no data; the default target applies.
        let steps = rows.filter { $0.metric == .steps }
        #expect(steps.map(\.windowDays) == [1, 7, 30])
        #expect(steps.map(\.daysWithData) == [0, 0, 6])
        #expect(steps[2].total == 6_117)  // 1,012 + 1,015 + 1,018 + 1,021 + 1,024 + 1,027
        #expect(steps.allSatisfy { $0.target == 8_000 && $0.targetProvenance == "SUGGESTED" })
        // Energy: the journal has days 20, 24, …, 36 (none in the last 1 or 2
        // days), so the 1-day window falls back to health's 2,000 on day 39.
        let energy = rows.filter { $0.metric == .energyKcal }
        #expect(energy.map(\.source) == ["APPLE_HEALTH", "LOCAL_JOURNAL", "LOCAL_JOURNAL"])
        #expect(energy[0].fallbackReason == "REQUESTED_SOURCE_NO_DATA" && energy[0].total == 2_000)
        #expect(energy.allSatisfy { $0.target == 2_100 && $0.targetProvenance == "CONFIRMED" })
    }
}
