import Foundation
import Testing

@testable import DayfoldCore

/// The report's pieces: escaping, tokens, how a day is drawn, how pages split.
@Suite struct HTMLPiecesTests {
    @Test func everyValueIsEscaped() {
        #expect(HTMLText.escape(#"<b a="1">'&'</b>"#) == "&lt;b a=&quot;1&quot;&gt;&#39;&amp;&#39;&lt;/b&gt;")
        #expect(HTMLText.escape("plain-id_1") == "plain-id_1")
    }

    @Test func tokensKeepPlainIdsAndNeverCollide() {
        #expect(HTMLText.token("2a66a88b-3231") == "2a66a88b-3231")
        #expect(HTMLText.token("a/b") == "~612f62")
        #expect(HTMLText.token("~612f62") != HTMLText.token("a/b"))
        let long = String(repeating: "é", count: 100)
        #expect(HTMLText.token(long).utf8.count <= 120)
        #expect(HTMLText.token(long).hasPrefix("~~"))
    }

    @Test(arguments: [
        (nil as Double?, "NEUTRAL", "n", "no plan"), (0.0, "BROKEN", "b", "broken, 0 %"),
        (1.0, "KEPT", "k", "kept, 100 %"), (nil, "OPEN", "o", "open"),
    ])
    func aDayWithNothingScoredIsNoPlanNeverZero(adherence: Double?, state: String, style: String, words: String) {
        let look = DayCalendarChart.look(ReportRows.Day(date: LocalDate(days: 0), adherence: adherence, state: state))
        #expect(look.style == style)
        #expect(look.words == words)
        #expect(DayCalendarChart.look(nil).words == "no plan")
    }

    @Test func theCalendarShowsNinetyDaysWithATextAlternative() throws {
        let last = try #require(LocalDate("2026-03-31"))
        let days = [
            ReportRows.Day(date: last, adherence: nil, state: "NEUTRAL"),
            ReportRows.Day(date: last.adding(days: -1), adherence: 0.5, state: "BROKEN"),
        ]
        let html = DayCalendarChart.render(last: last, days: days, label: "Client <x>")
        #expect(html.matches(of: /<rect x=/).count == 90)
        #expect(html.contains("<title>2026-03-31: no plan</title>"))
        #expect(html.contains("<title>2026-03-30: broken, 50 %</title>"))
        #expect(html.contains("Client &lt;x&gt;: 2026-01-01 to 2026-03-31: 0 kept, 1 broken, 89 no plan, 0 open"))
        #expect(html.contains("<table class=\"caltable\">"))
    }

    @Test func progressWithoutDataHasNoBar() {
        let empty = ReportRows.Progress(
            userID: "u", metric: "steps", windowDays: 7, daysWithData: 0, average: nil, target: 8000,
            percentOfTarget: nil, coverageLabel: "No data yet")
        let some = ReportRows.Progress(
            userID: "u", metric: "steps", windowDays: 7, daysWithData: 5, average: 6000, target: 8000,
            percentOfTarget: 75, coverageLabel: "5 of 7 days with data · from Apple Health")
        let html = ProgressBarsChart.render([empty, some])
        #expect(html.matches(of: /<svg class="chart bar"/).count == 1)
        #expect(html.contains("no data"))
        #expect(html.contains("5 of 7 days with data"))
        #expect(html.contains("6000 / 8000 (75 %)"))
    }

    @Test func blocksSplitUnderTheBudgetAndABigBlockGetsAPageOfItsOwn() {
        let blocks = ["aaaa", "bbbb", "cccccccccc", "dd", "ee"]
        #expect(HTMLPager.split(blocks, firstBudget: 8, budget: 6) == [0..<2, 2..<3, 3..<5])
        #expect(HTMLPager.split([], firstBudget: 8, budget: 8) == [0..<0])
        #expect(HTMLPager.fileName("coach-x", page: 1) == "coach-x.html")
        #expect(HTMLPager.fileName("coach-x", page: 2) == "coach-x-2.html")
    }

    @Test func rejectReasonsAreCountedByTheirCodeOnly() {
        let rejects = ["unknown_unit:kg/HKFoo", "unknown_unit:lb/HKBar", "bad_row"].map {
            RejectedRecord(file: "f", line: 1, kind: "k", reason: $0, raw: "")
        }
        let reasons = HTMLRunSummary.reasons(rejects)
        #expect(reasons.map(\.reason) == ["unknown_unit", "bad_row"])
        #expect(reasons.map(\.rows) == [2, 1])
    }
}
