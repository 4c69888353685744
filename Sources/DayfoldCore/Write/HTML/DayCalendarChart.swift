/// The 90-day calendar of a relationship's `day_state` (SPEC §14): a
/// square per day, a column per week (Monday on top). A day with nothing
/// scored (NULL adherence, or no tasks at all) is *no plan* — grey hatching
/// and the words "no plan" — so it never looks like a 0 % day; an open day
/// is dotted and says "open". The numbers are also a table (a week per row).
enum DayCalendarChart {
    static let days = 90
    private static let cell = 16
    private static let pitch = 19
    private static let left = 30
    private static let top = 14

    /// How one day is drawn and said.
    struct Look {
        /// The CSS class of its square: k kept, b broken, n no plan, o open.
        var style: String
        var words: String
    }

    static func look(_ day: ReportRows.Day?) -> Look {
        guard let day else { return Look(style: "n", words: "no plan") }
        switch day.state {
        case DayState.open.rawValue:
            return Look(style: "o", words: day.adherence.map { "open, \(HTMLText.adherence($0)) so far" } ?? "open")
        case DayState.kept.rawValue: return Look(style: "k", words: "kept, \(HTMLText.adherence(day.adherence))")
        case DayState.broken.rawValue: return Look(style: "b", words: "broken, \(HTMLText.adherence(day.adherence))")
        default:
            return day.adherence == nil
                ? Look(style: "n", words: "no plan") : Look(style: "n", words: HTMLText.adherence(day.adherence))
        }
    }

    /// Monday = 0 … Sunday = 6 (1970-01-01 was a Thursday).
    static func weekday(_ date: LocalDate) -> Int {
        Int(((date.days % 7) + 7 + 3) % 7)
    }

    /// The chart and its table for the 90 days ending `last`; `days` sorted by date.
    static func render(last: LocalDate, days: [ReportRows.Day], label: String) -> String {
        let first = last.adding(days: -(Self.days - 1))
        var byDate: [Int32: ReportRows.Day] = [:]
        for day in days where day.date >= first && day.date <= last { byDate[day.date.days] = day }
        let offset = weekday(first)
        let weeks = (offset + Self.days + 6) / 7
        let width = left + weeks * pitch
        let height = top + 7 * pitch
        // Each day's look and date text, made once for the squares and the table.
        let dates = (0..<Self.days).map { first.adding(days: $0) }
        let texts = dates.map(\.description)
        let looks = dates.map { look(byDate[$0.days]) }
        var counts: [String: Int] = [:]
        var squares = ""
        squares.reserveCapacity(Self.days * 120)
        for index in 0..<Self.days {
            let look = looks[index]
            counts[look.style, default: 0] += 1
            let slot = offset + index
            squares += "<rect x=\""
            squares += String(left + (slot / 7) * pitch)
            squares += "\" y=\""
            squares += String(top + (slot % 7) * pitch)
            squares += Self.squareSize
            squares += look.style
            squares += "\" data-date=\""
            squares += texts[index]
            squares += "\"><title>"
            squares += texts[index]
            squares += ": "
            squares += look.words
            squares += "</title></rect>"
        }
        let summary =
            "\(label): \(first) to \(last): \(counts["k"] ?? 0) kept, \(counts["b"] ?? 0) broken, "
            + "\(counts["n"] ?? 0) no plan, \(counts["o"] ?? 0) open"
        var svg =
            "<svg class=\"chart cal\" viewBox=\"0 0 \(width) \(height)\" role=\"img\" "
            + "aria-label=\"\(HTMLText.escape(summary))\"><title>\(HTMLText.escape(summary))</title>"
        for (row, name) in ["Mon", "", "Wed", "", "Fri", "", "Sun"].enumerated() where !name.isEmpty {
            svg += "<text x=\"0\" y=\"\(top + row * pitch + 12)\">\(name)</text>"
        }
        svg += "<text x=\"\(left)\" y=\"10\">\(first)</text>"
        svg += squares + "</svg>"
        return svg + legend + table(first: first, offset: offset, weeks: weeks, looks: looks)
    }

    private static let squareSize = "\" width=\"\(cell)\" height=\"\(cell)\" rx=\"2\" class=\""

    /// What the squares mean, under each calendar.
    static let legend =
        "<ul class=\"legend\">"
        + [("k", "kept"), ("b", "broken"), ("n", "no plan (nothing scored)"), ("o", "open")].map {
            "<li><svg class=\"sw\" viewBox=\"0 0 12 12\" aria-hidden=\"true\"><rect width=\"12\" height=\"12\" "
                + "class=\"\($0.0)\"/></svg>\($0.1)</li>"
        }.joined() + "</ul>"

    /// The calendar as a table: a row per week, a column per weekday.
    private static func table(first: LocalDate, offset: Int, weeks: Int, looks: [Look]) -> String {
        var rows = ""
        rows.reserveCapacity(weeks * 160)
        for week in 0..<weeks {
            let monday = first.adding(days: week * 7 - offset)
            rows += "<tr><th>\(monday)</th>"
            for weekday in 0..<7 {
                let index = week * 7 + weekday - offset
                guard index >= 0 && index < Self.days else {
                    rows += "<td></td>"
                    continue
                }
                let look = looks[index]
                rows += look.style == "n" ? "<td class=\"noplan\">" : "<td>"
                rows += look.words
                rows += "</td>"
            }
            rows += "</tr>"
        }
        return "<details><summary>The 90 days as a table</summary><div class=\"scroll\"><table class=\"caltable\">"
            + "<tr><th>week of</th><th>Mon</th><th>Tue</th><th>Wed</th><th>Thu</th><th>Fri</th><th>Sat</th>"
            + "<th>Sun</th></tr>" + rows + "</table></div></details>"
    }
}
