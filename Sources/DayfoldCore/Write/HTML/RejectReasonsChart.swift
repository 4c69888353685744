/// The overview's top reject reasons: a horizontal bar per reason code,
/// and the counts as a table.
enum RejectReasonsChart {
    static let shown = 10

    static func render(_ reasons: [(reason: String, rows: Int)], rejected: Int) -> String {
        guard !reasons.isEmpty else { return "<p>No row was rejected.</p>" }
        let top = Array(reasons.prefix(shown))
        let most = max(top.first?.rows ?? 1, 1)
        let rowHeight = 20
        let labelWidth = 230
        let barSpace = 330
        let height = top.count * rowHeight + 4
        let summary = "Top reject reasons: " + top.map { "\($0.reason) \($0.rows)" }.joined(separator: ", ")
        var svg =
            "<svg class=\"chart bars\" viewBox=\"0 0 \(labelWidth + barSpace + 60) \(height)\" role=\"img\" "
            + "aria-label=\"\(HTMLText.escape(summary))\"><title>\(HTMLText.escape(summary))</title>"
        for (index, entry) in top.enumerated() {
            let y = index * rowHeight + 2
            let width = max(1, Int((Double(entry.rows) / Double(most) * Double(barSpace)).rounded()))
            svg +=
                "<text x=\"0\" y=\"\(y + 13)\">\(HTMLText.escape(entry.reason))</text>"
                + "<rect x=\"\(labelWidth)\" y=\"\(y + 2)\" width=\"\(width)\" height=\"14\" fill=\"#c62828\"/>"
                + "<text x=\"\(labelWidth + width + 4)\" y=\"\(y + 13)\">\(entry.rows)</text>"
        }
        svg += "</svg>"
        var table =
            "<details><summary>The reasons as a table</summary><div class=\"scroll\"><table><tr><th>reason</th>"
            + "<th class=\"n\">rows</th></tr>"
        for entry in top {
            table += "<tr><td><code>\(HTMLText.escape(entry.reason))</code></td><td class=\"n\">\(entry.rows)</td></tr>"
        }
        if reasons.count > shown {
            let rest = reasons.dropFirst(shown).reduce(0) { $0 + $1.rows }
            table += "<tr><td>\(reasons.count - shown) other reasons</td><td class=\"n\">\(rest)</td></tr>"
        }
        table += "</table></div></details>"
        return svg + table
            + "<p class=\"muted\">\(rejected) rejected rows in all; rejects/rejects.csv has each one.</p>"
    }
}
