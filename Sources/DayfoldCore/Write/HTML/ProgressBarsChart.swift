/// A client's Progress windows (SPEC §14): per metric and window, the
/// average as a bar against the target (the line at 100 %), with the
/// coverage the table writes ("5 of 7 days with data · …"). A window with
/// no data has no bar, and one without a target has no bar either: there is
/// nothing to measure the average against. The table holds the numbers.
enum ProgressBarsChart {
    /// The bar's scale ends at this percentage of the target.
    private static let scaleEnd = 150.0
    private static let width = 140.0

    static func render(_ rows: [ReportRows.Progress]) -> String {
        guard !rows.isEmpty else { return "<p class=\"muted\">No Progress windows for this client.</p>" }
        var html =
            "<div class=\"scroll\"><table class=\"progress\"><tr><th>metric, window</th>"
            + "<th class=\"n\">average / target</th><th>against the target</th><th>coverage</th></tr>"
        for row in rows {
            let hasData = row.daysWithData > 0
            let average = hasData ? row.average.map(HTMLText.number) ?? "–" : "–"
            let target = row.target.map(HTMLText.number) ?? "–"
            let percent = hasData ? row.percentOfTarget.map { " (\(HTMLText.percent($0)))" } ?? "" : ""
            html +=
                "<tr><td>\(HTMLText.escape(row.metric)), \(row.windowDays) d</td>"
                + "<td class=\"n nowrap\">\(average) / \(target)\(percent)</td>"
                + "<td>\(bar(row))</td><td>\(HTMLText.escape(row.coverageLabel))</td></tr>"
        }
        return html + "</table></div>"
    }

    private static func bar(_ row: ReportRows.Progress) -> String {
        guard row.daysWithData > 0, let average = row.average else { return "<span class=\"noplan\">no data</span>" }
        guard let percent = row.percentOfTarget, let target = row.target else {
            return "<span class=\"muted\">no target</span>"
        }
        let filled = max(0, min(percent, scaleEnd)) / scaleEnd * width
        let goal = 100 / scaleEnd * width
        let words =
            "\(row.metric), \(row.windowDays) days: average \(HTMLText.number(average)) of target "
            + "\(HTMLText.number(target)) (\(HTMLText.percent(percent))), \(row.coverageLabel)"
        return "<svg class=\"chart bar\" viewBox=\"0 0 \(HTMLText.number(width)) 14\" role=\"img\" "
            + "aria-label=\"\(HTMLText.escape(words))\"><title>\(HTMLText.escape(words))</title>"
            + "<rect class=\"track\" width=\"\(HTMLText.number(width))\" height=\"14\"/>"
            + "<rect class=\"fill\" y=\"2\" width=\"\(HTMLText.fixed(filled, tenths: true))\" height=\"10\"/>"
            + "<line class=\"goal\" x1=\"\(HTMLText.fixed(goal, tenths: true))\" x2=\"\(HTMLText.fixed(goal, tenths: true))\" "
            + "y1=\"0\" y2=\"14\"/></svg>"
    }
}
