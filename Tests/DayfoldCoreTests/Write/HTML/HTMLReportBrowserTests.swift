import Foundation
import Testing

/// The report in a real browser (SPEC §14): headless Chromium (Debian's
/// `chromium`, installed by Scripts/ensure-deps.sh) opens the overview and
/// a coach page from the file system through `Tests/browser/report_browser.py`,
/// one browser for both. No console message, no request but the page's own
/// file; the HIGH-risk relationships are on the overview; a day with NULL
/// adherence is drawn as *no plan*; no canary of the drop is on either page.
/// Without Chromium the test fails: it never passes by not running.
@Suite(.serialized) struct HTMLReportBrowserTests {
    @Test(.timeLimit(.minutes(10))) func overviewAndCoachPageRenderCleanlyWithTheirFacts() throws {
        let root = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let drop = try ReportDrops.plantedDrop(in: root)
        let output = root.appendingPathComponent("out")
        try ReportDrops.run(drop, output)
        let report = output.appendingPathComponent("report")

        // A day with NULL adherence (nothing scored) within the last 90 days.
        let days = try ReportComparison.readCSV(output.appendingPathComponent("reports/coach_daily_summary.csv"))
        let column = { (name: String) in try #require(days.header.firstIndex(of: name)) }
        let (relationship, date, state, adherence, coach) = (
            try column("relationship_id"), try column("local_date"), try column("day_state"), try column("adherence"),
            try column("coach_user_id")
        )
        let noPlan = try #require(
            days.rows.last {
                ($0[adherence] ?? "").isEmpty && $0[state] == "NEUTRAL" && ($0[date] ?? "") >= "2026-01-01"
            },
            "the sample has a day with nothing scored")
        let coachPage = "coach-\(noPlan[coach] ?? "").html"
        #expect(FileManager.default.fileExists(atPath: report.appendingPathComponent(coachPage).path))

        let browsed = try Self.browse([
            (report.appendingPathComponent("index.html").path, 1280, 900),
            (report.appendingPathComponent(coachPage).path, 375, 800),
        ])
        let pages = try #require(browsed["pages"] as? [[String: Any]])
        try #require(pages.count == 2)
        for page in pages {
            let name = page["page"] as? String ?? "?"
            #expect((page["console"] as? [String]) == [], "\(name): console says \(page["console"] ?? "")")
            let requests = page["requests"] as? [String] ?? []
            #expect(!requests.isEmpty && requests.allSatisfy { $0.hasPrefix("file://") }, "\(name): \(requests)")
            #expect(!(page["text"] as? String ?? "").contains(ReportDrops.canary), "\(name) shows a canary")
            // Readable at its width: nothing wider than the viewport but scrolling tables.
            #expect((page["width"] as? Int ?? 0) <= (page["viewport"] as? Int ?? 0), "\(name) scrolls sideways")
        }

        // The HIGH-risk relationships of the drop are on the overview, as HIGH.
        let signals = try ReportComparison.readCSV(output.appendingPathComponent("reports/risk_signals.csv"))
        let severity = try #require(signals.header.firstIndex(of: "severity"))
        let high = Set(signals.rows.filter { $0[severity] == "HIGH" }.compactMap { $0[0] })
        #expect(!high.isEmpty, "the sample has HIGH risk signals")
        let shown = Set(
            (pages[0]["riskRows"] as? [String] ?? []).filter { $0.hasPrefix("risk-HIGH|") }.map {
                String($0.dropFirst("risk-HIGH|".count))
            })
        #expect(shown == high)

        // The NULL-adherence day: hatched, classed and titled "no plan".
        let square = (pages[1]["squares"] as? [String] ?? []).first {
            $0.hasPrefix("r-\(noPlan[relationship] ?? "")|\(noPlan[date] ?? "")|")
        }
        let parts = try #require(square, "no square for \(noPlan[date] ?? "")").split(separator: "|").map(String.init)
        #expect(parts.count == 5)
        #expect(parts[2] == "n")
        #expect(parts[3].contains("#np"), "drawn with \(parts[3])")
        #expect(parts[4].hasSuffix(": no plan"))
    }

    /// Runs the browser script on `pages` (path, width, height); its JSON.
    static func browse(_ pages: [(String, Int, Int)]) throws -> [String: Any] {
        let result = try BoundedProcess.run(
            ["python3", TestPaths.repositoryRoot.appendingPathComponent("Tests/browser/report_browser.py").path]
                + pages.flatMap { [$0.0, String($0.1), String($0.2), "-"] },
            limit: 300, executable: URL(fileURLWithPath: "/usr/bin/env"))
        try #require(result.status == 0, "report_browser.py failed: \(result.stderr)")
        let data = Data(result.stdout.utf8)
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }
}
