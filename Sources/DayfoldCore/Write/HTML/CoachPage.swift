/// A coach's pages: each client (relationship) with the current streak,
/// 7/30/90-day adherence, its risk signals, the 90-day calendar and its
/// Progress windows, in relationship id order; split over pages under the
/// page limit (`coach-<id>.html`, `coach-<id>-2.html`, …).
enum CoachPage {
    /// A coach and their relationships' `streaks` rows (a relationship with
    /// no coach is under `id` nil: "no coach").
    struct Coach {
        var id: String?
        var streaks: [ReportRows.Streak]

        /// The coach's pages are `<base>.html`, `<base>-2.html`, …
        var base: String { "coach-" + (id.map(HTMLText.token) ?? "~") }
        var name: String { id.map { "Coach \($0)" } ?? "Clients with no coach" }
    }

    /// Coaches by id bytes, the relationships with no coach last.
    static func coaches(_ streaks: [ReportRows.Streak]) -> [Coach] {
        var byCoach: [String: [ReportRows.Streak]] = [:]
        var none: [ReportRows.Streak] = []
        for streak in streaks {
            if let coach = streak.coachUserID {
                byCoach[coach, default: []].append(streak)
            } else {
                none.append(streak)
            }
        }
        var coaches = byCoach.keys.sorted(by: bytesLess).map { Coach(id: $0, streaks: byCoach[$0] ?? []) }
        if !none.isEmpty { coaches.append(Coach(id: nil, streaks: none)) }
        return coaches
    }

    /// The fragment of a relationship's section on its coach's page.
    static func anchor(_ relationshipID: String) -> String { "r-" + HTMLText.token(relationshipID) }

    /// The coach's pages (file name, HTML) and, per relationship, the page it is on.
    static func render(
        _ coach: Coach, rows: ReportRows, signals: [String: [ReportRows.Signal]],
        progress: [String: [ReportRows.Progress]], frame: HTMLReport.Frame, pageLimit: Int
    ) -> (pages: [(String, String)], placement: [String: String]) {
        let blocks = coach.streaks.map { section($0, rows: rows, signals: signals, progress: progress) }
        let title = coach.name
        let budget =
            pageLimit - HTMLPage.frameBytes(title: title, nav: frame.nav, footer: frame.footer)
            - 2 * HTMLPager.navigationBytes - intro(coach).utf8.count
        let ranges = HTMLPager.split(blocks, firstBudget: budget, budget: budget)
        var pages: [(String, String)] = []
        var placement: [String: String] = [:]
        for (index, range) in ranges.enumerated() {
            let file = HTMLPager.fileName(coach.base, page: index + 1)
            let pager = HTMLPager.navigation(coach.base, page: index + 1, count: ranges.count)
            for streak in coach.streaks[range] { placement[streak.relationshipID] = file }
            let body = intro(coach) + pager + blocks[range].joined() + pager
            pages.append((file, HTMLPage.render(title: title, nav: frame.nav, body: body, footer: frame.footer)))
        }
        return (pages, placement)
    }

    private static func intro(_ coach: Coach) -> String {
        "<p>\(coach.streaks.count) client relationships. Each shows its current streak, its adherence over 7, 30 "
            + "and 90 days (<span class=\"noplan\">no plan</span> where nothing was scored, never 0 %), its risk "
            + "signals, the last 90 days and its Progress windows.</p>\n"
    }

    private static func section(
        _ streak: ReportRows.Streak, rows: ReportRows, signals: [String: [ReportRows.Signal]],
        progress: [String: [ReportRows.Progress]]
    ) -> String {
        func card(_ label: String, _ value: Double?) -> String {
            let text = HTMLText.adherence(value)
            return "<div class=\"card\">\(label)<b\(value == nil ? " class=\"noplan\"" : "")>\(text)</b></div>"
        }
        var html =
            "<section class=\"client\" id=\"\(anchor(streak.relationshipID))\">"
            + "<h2>Client <code>\(HTMLText.escape(streak.clientUserID))</code></h2>"
            + "<p class=\"muted\">relationship <code>\(HTMLText.escape(streak.relationshipID))</code> · as of "
            + "\(streak.asOfDate)</p><div class=\"cards\"><div class=\"card\">current streak<b>"
            + "\(streak.currentDays) day\(streak.currentDays == 1 ? "" : "s")</b></div>"
            + card("7-day adherence", streak.adherence7) + card("30-day adherence", streak.adherence30)
            + card("90-day adherence", streak.adherence90) + "</div>"
        if let found = signals[streak.relationshipID], !found.isEmpty {
            html += "<ul class=\"risks\">"
            for signal in found {
                html +=
                    "<li><span class=\"sev sev-\(HTMLText.escape(signal.severity))\">\(HTMLText.escape(signal.severity))"
                    + "</span> <code>\(HTMLText.escape(signal.signal))</code> \(signal.windowFrom) to "
                    + "\(signal.windowTo): \(HTMLText.escape(signal.explanation))</li>"
            }
            html += "</ul>"
        }
        html += "<h3>The last 90 days</h3>"
        html += DayCalendarChart.render(
            last: streak.asOfDate, days: rows.days[streak.relationshipID] ?? [],
            label: "Client \(streak.clientUserID), day states")
        html += "<h3>Progress</h3>" + ProgressBarsChart.render(progress[streak.clientUserID] ?? [])
        return html + "</section>\n"
    }
}
