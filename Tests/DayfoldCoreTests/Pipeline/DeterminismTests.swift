import Foundation
import Testing

/// Same drop, pipeline and --as-of → byte-identical reports and snapshots.
@Suite struct DeterminismTests {
    @Test func twoRunsAreByteIdentical() throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let pipeline = TestPaths.repositoryRoot.appendingPathComponent("Pipelines/sample.json").path
        let input = TestPaths.repositoryRoot.appendingPathComponent("SampleData/demo").path
        for name in ["a", "b"] {
            let result = try DayfoldProcess.run([
                "run", pipeline, "--input", input, "--output", directory.appendingPathComponent(name).path, "--as-of",
                "2026-03-31T18:00:00Z",
            ])
            #expect(result.status == 0, "\(result.stderr)")
        }
        let files = [
            "reports/coach_daily_summary.csv", "reports/streaks.csv", "reports/risk_signals.csv",
            "reports/progress_ranges.csv", "rejects/rejects.csv", "snapshots/relationship_days.parquet",
            "snapshots/client_days.parquet", "snapshots/adherence_events.parquet", "snapshots/streaks.parquet",
            "snapshots/risk_signals.parquet", "snapshots/progress_ranges.parquet",
        ]
        for file in files {
            let first = try Data(contentsOf: directory.appendingPathComponent("a/\(file)"))
            let second = try Data(contentsOf: directory.appendingPathComponent("b/\(file)"))
            #expect(!first.isEmpty, "\(file) is empty")
            #expect(first == second, "\(file) differs between two identical runs")
        }
    }
}
