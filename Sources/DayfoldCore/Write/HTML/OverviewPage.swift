/// The overview (`index.html`): the run — as-of, inputs and their
/// accounting, the top reject reasons, warnings, failed imports — push
/// delivery health when the drop has push data, the coaches, and the
/// clients at risk, highest severity first, each with its explanation.
/// When the clients at risk do not fit the page limit, they go on over
/// `index-2.html`, …
enum OverviewPage {
    static let base = "index"

    /// Severity rank: HIGH first.
    static func rank(_ severity: String) -> Int {
        switch severity {
        case RiskSeverity.high.rawValue: 0
        case RiskSeverity.medium.rawValue: 1
        case RiskSeverity.low.rawValue: 2
        default: 3
        }
    }

    static func render(
        _ summary: HTMLRunSummary, rows: ReportRows, coaches: [CoachPage.Coach], placement: [String: String],
        frame: HTMLReport.Frame, pageLimit: Int
    ) -> [(String, String)] {
        // The run's accounting first, then who needs attention; the rest of
        // the run's health and the coaches after the clients at risk.
        let first = runSection(summary)
        let rest =
            healthSection(summary) + pushSection(rows) + coachSection(coaches, signals: rows.signals)
        // Highest severity first; within one, the table's order (relationship, signal).
        let atRisk = rows.signals.enumerated().sorted {
            let left = rank($0.element.severity)
            let right = rank($1.element.severity)
            return left != right ? left < right : $0.offset < $1.offset
        }.map(\.element)
        let riskRows = atRisk.map { riskRow($0, placement: placement) }
        let title = "dayfold report — as of \(summary.asOf)"
        let frameBytes =
            HTMLPage.frameBytes(title: title, nav: frame.nav, footer: frame.footer) + 2 * HTMLPager.navigationBytes
            + riskHead(count: atRisk.count).utf8.count + riskTableHead.utf8.count + 64
        let ranges = HTMLPager.split(
            riskRows, firstBudget: pageLimit - frameBytes - first.utf8.count - rest.utf8.count,
            budget: pageLimit - frameBytes)
        return ranges.enumerated().map { index, range in
            let pager = HTMLPager.navigation(base, page: index + 1, count: ranges.count)
            var body = index == 0 ? first : ""
            body += riskHead(count: atRisk.count) + pager
            if !range.isEmpty {
                body += "<div class=\"scroll\">" + riskTableHead + riskRows[range].joined() + "</table></div>\n"
            }
            body += pager
            if index == 0 { body += rest }
            return (
                HTMLPager.fileName(base, page: index + 1),
                HTMLPage.render(title: title, nav: frame.nav, body: body, footer: frame.footer)
            )
        }
    }

    private static func runSection(_ summary: HTMLRunSummary) -> String {
        let inputs = summary.inputs
        func total(_ value: (FileAccount) -> Int) -> Int { inputs.reduce(0) { $0 + value($1) } }
        var html =
            "<h2 id=\"run\">The run</h2><dl class=\"run\"><dt>as of</dt><dd>\(summary.asOf)</dd>"
            + "<dt>pipeline</dt><dd>\(HTMLText.escape(summary.pipeline))</dd><dt>dayfold</dt>"
            + "<dd>\(Manifest.toolVersion)</dd><dt>input files</dt><dd>\(inputs.count)</dd></dl>"
            + "<div class=\"scroll\"><table><tr><th class=\"n\">rows read</th><th class=\"n\">accepted</th>"
            + "<th class=\"n\">duplicate</th><th class=\"n\">ignored</th><th class=\"n\">rejected</th></tr><tr>"
            + [total(\.rowsRead), total(\.accepted), total(\.duplicate), total(\.ignored), total(\.rejected)].map {
                "<td class=\"n\">\($0)</td>"
            }.joined() + "</tr></table></div>"
        html +=
            "<details><summary>Every input file</summary><div class=\"scroll\"><table><tr><th>file</th><th>kind</th>"
            + "<th class=\"n\">read</th><th class=\"n\">accepted</th><th class=\"n\">duplicate</th>"
            + "<th class=\"n\">ignored</th><th class=\"n\">rejected</th></tr>"
        for account in inputs {
            let note = account.failed != nil ? " (import failed)" : account.skipped != nil ? " (skipped)" : ""
            html +=
                "<tr><td><code>\(HTMLText.escape(account.path))</code>\(note)</td><td>\(HTMLText.escape(account.kind))"
                + "</td><td class=\"n\">\(account.rowsRead)</td><td class=\"n\">\(account.accepted)</td>"
                + "<td class=\"n\">\(account.duplicate)</td><td class=\"n\">\(account.ignored)</td>"
                + "<td class=\"n\">\(account.rejected)</td></tr>"
        }
        return html + "</table></div></details>\n"
    }

    /// Reject reasons, warnings and failed imports.
    private static func healthSection(_ summary: HTMLRunSummary) -> String {
        var html = "<h2 id=\"rejects\">Top reject reasons</h2>"
        html += RejectReasonsChart.render(
            summary.rejectReasons, rejected: summary.inputs.reduce(0) { $0 + $1.rejected })
        html += "<h2 id=\"warnings\">Warnings</h2>"
        html +=
            summary.warnings.isEmpty
            ? "<p>None.</p>" : "<ul>" + summary.warnings.map { "<li>\(HTMLText.escape($0))</li>" }.joined() + "</ul>"
        html += "<h2 id=\"failed-imports\">Failed imports</h2>"
        html +=
            summary.failedImports.isEmpty
            ? "<p>None.</p>"
            : "<p>Users whose health import could not be read:</p><ul>"
                + summary.failedImports.map { "<li><code>\(HTMLText.escape($0))</code></li>" }.joined() + "</ul>"
        return html + "\n"
    }

    private static func pushSection(_ rows: ReportRows) -> String {
        guard rows.hasPush else { return "" }
        return "<h2 id=\"push\">Push delivery health</h2>"
            + PushHealthChart.render(rows.pushHealth, classes: rows.pushErrorClasses) + "\n"
    }

    private static func coachSection(_ coaches: [CoachPage.Coach], signals: [ReportRows.Signal]) -> String {
        var atRisk: [String: Set<String>] = [:]
        for signal in signals { atRisk[signal.coachUserID ?? "", default: []].insert(signal.relationshipID) }
        var html =
            "<h2 id=\"coaches\">Coaches</h2><div class=\"scroll\"><table><tr><th>coach</th>"
            + "<th class=\"n\">clients</th><th class=\"n\">with a risk signal</th></tr>"
        for coach in coaches {
            let name = coach.id.map { "<code>\(HTMLText.escape($0))</code>" } ?? "no coach"
            html +=
                "<tr><td><a href=\"\(coach.base).html\">\(name)</a></td><td class=\"n\">\(coach.streaks.count)</td>"
                + "<td class=\"n\">\(atRisk[coach.id ?? ""]?.count ?? 0)</td></tr>"
        }
        return html + "</table></div>\n"
    }

    private static func riskHead(count: Int) -> String {
        "<h2 id=\"at-risk\">Clients at risk</h2><p>\(count) risk signals, highest severity first.</p>"
    }

    private static let riskTableHead =
        "<table class=\"risk\"><tr><th>severity</th><th>client</th><th>coach</th><th>signal</th><th>window</th>"
        + "<th>explanation</th></tr>"

    private static func riskRow(_ signal: ReportRows.Signal, placement: [String: String]) -> String {
        let client = "<code>\(HTMLText.escape(signal.clientUserID))</code>"
        let link =
            placement[signal.relationshipID].map {
                "<a href=\"\($0)#\(CoachPage.anchor(signal.relationshipID))\">\(client)</a>"
            } ?? client
        return "<tr class=\"risk-\(HTMLText.escape(signal.severity))\" data-relationship=\""
            + "\(HTMLText.escape(signal.relationshipID))\"><td class=\"sev sev-\(HTMLText.escape(signal.severity))\">"
            + "\(HTMLText.escape(signal.severity))</td><td>\(link)</td><td>"
            + (signal.coachUserID.map { "<code>\(HTMLText.escape($0))</code>" } ?? "–")
            + "</td><td><code>\(HTMLText.escape(signal.signal))</code></td><td>\(signal.windowFrom) to "
            + "\(signal.windowTo)</td><td>\(HTMLText.escape(signal.explanation))</td></tr>"
    }
}
