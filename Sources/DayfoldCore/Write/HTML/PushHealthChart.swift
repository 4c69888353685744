/// Push delivery health (SPEC §11, §14) by day: a bar per day, stacked by
/// what became of its deliveries — delivered, then the failures of each
/// error class. The rows of `push_delivery_health` (a day, provider,
/// platform, surface, version and category each) are added up per day for
/// the picture; the table under it holds the same sums.
enum PushHealthChart {
    private static let colors = [
        "#c62828", "#ef6c00", "#f9a825", "#6a1b9a", "#00838f", "#4e342e", "#ad1457", "#283593", "#558b2f",
    ]
    private static let height = 160
    private static let top = 10
    private static let bottom = 20

    struct DayTotals {
        var day: LocalDate
        var deliveries: Int64 = 0
        var delivered: Int64 = 0
        var failed: Int64 = 0
        var failedByClass: [Int64]
    }

    static func totals(_ rows: [ReportRows.PushHealth], classes: Int) -> [DayTotals] {
        var byDay: [Int32: DayTotals] = [:]
        for row in rows {
            var day = byDay[row.day.days] ?? DayTotals(day: row.day, failedByClass: Array(repeating: 0, count: classes))
            day.deliveries += row.deliveries
            day.delivered += row.delivered
            day.failed += row.failed
            for (slot, count) in row.failedByClass.enumerated() where slot < classes {
                day.failedByClass[slot] += count
            }
            byDay[row.day.days] = day
        }
        return byDay.keys.sorted().compactMap { byDay[$0] }
    }

    static func render(_ rows: [ReportRows.PushHealth], classes: [String]) -> String {
        let days = totals(rows, classes: classes.count)
        guard let firstDay = days.first?.day, let lastDay = days.last?.day else {
            return "<p class=\"muted\">The drop's push/ folder holds no deliveries.</p>"
        }
        let span = Int(lastDay.days - firstDay.days) + 1
        let pitch = span > 120 ? 4 : span > 60 ? 7 : 12
        let barWidth = max(pitch - 1, 2)
        let left = 40
        let width = left + span * pitch + 10
        let tallest = max(days.map { $0.delivered + $0.failedByClass.reduce(0, +) }.max() ?? 1, 1)
        let plot = Double(height - top - bottom)
        let summary =
            "Push deliveries per day from \(firstDay) to \(lastDay): delivered, and failed by error class "
            + "(the table below has the numbers)"
        var svg =
            "<svg class=\"chart push\" viewBox=\"0 0 \(width) \(height)\" role=\"img\" "
            + "aria-label=\"\(HTMLText.escape(summary))\"><title>\(HTMLText.escape(summary))</title>"
            + "<text x=\"0\" y=\"\(top + 8)\">\(tallest)</text><text x=\"0\" y=\"\(height - bottom)\">0</text>"
            + "<line x1=\"\(left - 2)\" x2=\"\(width)\" y1=\"\(height - bottom)\" y2=\"\(height - bottom)\" "
            + "stroke=\"#9e9e9e\"/>"
            + "<text x=\"\(left)\" y=\"\(height - 4)\">\(firstDay)</text>"
            + "<text x=\"\(width - 10)\" y=\"\(height - 4)\" text-anchor=\"end\">\(lastDay)</text>"
        for day in days {
            let x = left + Int(day.day.days - firstDay.days) * pitch
            var y = Double(height - bottom)
            let parts =
                [(day.delivered, "#2e7d32", "delivered")]
                + classes.indices.map { (day.failedByClass[$0], colors[$0 % colors.count], "failed \(classes[$0])") }
            for (count, color, name) in parts where count > 0 {
                let size = Double(count) / Double(tallest) * plot
                y -= size
                svg +=
                    "<rect x=\"\(x)\" y=\"\(HTMLText.fixed(y, tenths: true))\" width=\"\(barWidth)\" "
                    + "height=\"\(HTMLText.fixed(size, tenths: true))\" fill=\"\(color)\"><title>\(day.day): "
                    + "\(count) \(HTMLText.escape(name))</title></rect>"
            }
        }
        svg += "</svg>"
        let legend =
            "<ul class=\"legend\">"
            + ([("#2e7d32", "delivered")]
            + classes.indices.map { (colors[$0 % colors.count], "failed: \(classes[$0])") })
            .map {
                "<li><svg viewBox=\"0 0 12 12\" aria-hidden=\"true\"><rect width=\"12\" height=\"12\" fill=\"\($0.0)\"/>"
                    + "</svg>\(HTMLText.escape($0.1))</li>"
            }.joined() + "</ul>"
        var table =
            "<details><summary>Deliveries per day as a table</summary><div class=\"scroll\"><table><tr><th>day</th>"
            + "<th class=\"n\">deliveries</th><th class=\"n\">delivered</th><th class=\"n\">failed</th>"
            + classes.map { "<th class=\"n\">failed: \(HTMLText.escape($0))</th>" }.joined() + "</tr>"
        for day in days {
            table +=
                "<tr><td>\(day.day)</td><td class=\"n\">\(day.deliveries)</td><td class=\"n\">\(day.delivered)</td>"
                + "<td class=\"n\">\(day.failed)</td>"
                + day.failedByClass.map { "<td class=\"n\">\($0)</td>" }.joined() + "</tr>"
        }
        table += "</table></div></details>"
        return svg + legend + table
    }
}
