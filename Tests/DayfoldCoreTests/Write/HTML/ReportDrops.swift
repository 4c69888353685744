import Foundation
import Testing

/// The drops the report tests run: SampleData with a canary planted in
/// every free-text, metadata, payload and token column it has (SPEC §7:
/// none may reach a page), and the runs of it the tests share.
enum ReportDrops {
    static let pipeline = TestPaths.repositoryRoot.appendingPathComponent("Pipelines/sample.json").path
    static let sample = TestPaths.repositoryRoot.appendingPathComponent("SampleData/demo")
    static let asOf = "2026-03-31T18:00:00Z"
    static let canary = "CANARY-HTML"

    /// (file in the drop, text there, its replacement carrying a canary).
    static let plants: [(String, String, String)] = [
        ("tasks/status_events/events-000.csv", ",PENDING,COMPLETED,,,", ",PENDING,COMPLETED,,CANARY-HTML-NOTE,"),
        ("tasks/status_events/events-001.csv", "\"\"tz\"\"", "\"\"canary\"\":\"\"CANARY-HTML-META\"\",\"\"tz\"\""),
        ("tasks/info_cards/cards-000.csv", "private text", "CANARY-HTML-CARD"),
        ("tasks/instances/instances-000.csv", "\"\"Daily check-in\"\"", "\"\"CANARY-HTML-SNAPSHOT\"\""),
        ("journal/journal-000.csv", "\"Yogurt, small\"", "\"CANARY-HTML-TITLE\""),
        ("health/health-000.csv", "Renpho", "CANARY-HTML-SOURCE"),
        ("push/receipts/receipts-000.csv", "{\"\"sample\"\": true}", "{\"\"sample\"\": \"\"CANARY-HTML-PAYLOAD\"\"}"),
        ("push/installations/installations-000.csv", "sample-token-hash-0", "CANARY-HTML-TOKEN"),
    ]

    /// A copy of SampleData/demo under `root` with every plant made.
    static func plantedDrop(in root: URL) throws -> URL {
        let drop = root.appendingPathComponent("drop")
        try FileManager.default.copyItem(at: sample, to: drop)
        for (file, text, replacement) in plants {
            let url = drop.appendingPathComponent(file)
            let content = try String(contentsOf: url, encoding: .utf8)
            #expect(content.contains(text), "\(file) no longer holds \(text): move the canary")
            try content.replacingOccurrences(of: text, with: replacement).write(
                to: url, atomically: true, encoding: .utf8)
        }
        return drop
    }

    /// Runs `dayfold run` on `drop` with `--html` into `output`.
    static func run(_ drop: URL, _ output: URL, _ extra: [String] = []) throws {
        let result = try DayfoldProcess.run(
            ["run", pipeline, "--input", drop.path, "--output", output.path, "--as-of", asOf, "--html"] + extra)
        #expect(result.status == 0 || result.status == 3, "\(result.stderr)")
    }

    /// Every file of `report/` and its bytes.
    static func pages(_ output: URL) throws -> [String: Data] {
        let folder = output.appendingPathComponent("report")
        var pages: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            pages[name] = try Data(contentsOf: folder.appendingPathComponent(name))
        }
        return pages
    }
}
