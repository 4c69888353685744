import Foundation

/// `report/` (SPEC §14): the overview and a page per coach, built from the
/// rows the collector saw written and the run's summary, written into the
/// staging folder beside the other outputs (so it is published, and
/// replaced, with them). Same inputs, same bytes: nothing on a page
/// depends on the clock, the machine or the order threads finished in.
enum HTMLReport {
    /// SPEC §14: no page over 5 MB.
    static let pageLimit = 5_000_000
    static let folder = "report"

    /// What every page has around its body.
    struct Frame: Sendable {
        var nav: String
        var footer: String
    }

    /// Writes the pages into `staging/report/`; returns each page's path in
    /// the output, rows (0: a page is not a table) and SHA-256, by path.
    /// Coaches' pages are made, written and hashed on both cores.
    static func write(
        _ summary: HTMLRunSummary, rows: ReportRows, into staging: String, pageLimit: Int = pageLimit
    ) throws -> [(String, Int, String)] {
        let directory = staging + "/" + folder
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let pages = try render(summary, rows: rows, pageLimit: pageLimit)
            let outputs = try ParallelJobs(
                pages.map { name, html in
                    {
                        let bytes = Array(html.utf8)
                        try Data(bytes).write(to: URL(fileURLWithPath: directory + "/" + name))
                        var hasher = SHA256Hasher()
                        hasher.update(bytes)
                        return (folder + "/" + name, 0, hasher.finalizeHex())
                    }
                }
            ).run()
            return outputs.sorted { bytesLess($0.0, $1.0) }
        } catch {
            throw DayfoldError(.output, "writing the HTML report into \(directory) failed: \(error)")
        }
    }

    /// Every page: file name and HTML.
    static func render(
        _ summary: HTMLRunSummary, rows: ReportRows, pageLimit: Int = pageLimit
    ) throws -> [(String, String)] {
        let frame = Frame(
            nav: "<a href=\"index.html\">Overview</a><a href=\"index.html#run\">The run</a>"
                + "<a href=\"index.html#coaches\">Coaches</a><a href=\"index.html#at-risk\">Clients at risk</a>",
            footer: "dayfold \(Manifest.toolVersion) · pipeline \(HTMLText.escape(summary.pipeline)) · as of "
                + "\(summary.asOf) · ids, dates, counts, numbers and reason codes only")
        var signals: [String: [ReportRows.Signal]] = [:]
        for signal in rows.signals { signals[signal.relationshipID, default: []].append(signal) }
        var progress: [String: [ReportRows.Progress]] = [:]
        for row in rows.progress { progress[row.userID, default: []].append(row) }
        let coaches = CoachPage.coaches(rows.streaks)
        let bySignal = signals
        let byUser = progress
        let rendered = try ParallelJobs(
            coaches.map { coach in
                {
                    CoachPage.render(
                        coach, rows: rows, signals: bySignal, progress: byUser, frame: frame, pageLimit: pageLimit)
                }
            }
        ).run()
        var pages: [(String, String)] = []
        var placement: [String: String] = [:]
        for coach in rendered {
            pages += coach.pages
            placement.merge(coach.placement) { first, _ in first }
        }
        let overview = OverviewPage.render(
            summary, rows: rows, coaches: coaches, placement: placement, frame: frame, pageLimit: pageLimit)
        return overview + pages
    }
}
