import Foundation
import Testing

/// Runs `dayfold` on the conformance drop (an independent worked example of
/// every SPEC edge case) and compares reports, rejects and accounting.
@Suite struct ConformanceTests {
    static let root = TestPaths.fixtures.appendingPathComponent("Conformance")
    static let asOf = "2026-03-29T09:30:00Z"

    /// Runs the conformance drop into a fresh directory; returns the output folder.
    static func run(in directory: URL, debugTables: Bool = false) throws -> URL {
        let output = directory.appendingPathComponent("out")
        let result = try DayfoldProcess.run(
            [
                "run", root.appendingPathComponent("pipeline.json").path, "--input",
                root.appendingPathComponent("drop").path,
                "--output", output.path, "--as-of", asOf,
            ] + (debugTables ? ["--debug-tables"] : []))
        #expect(result.status == 0, "dayfold run failed: \(result.stderr)")
        return output
    }

    @Test(arguments: ["coach_daily_summary", "streaks", "risk_signals", "progress_ranges"])
    func reportMatchesTheWorkedExample(report: String) throws {
        let output = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: output) }
        let out = try Self.run(in: output)
        let problems = try ReportComparison.differences(
            report: report, expected: Self.root.appendingPathComponent("expected/reports/\(report).csv"),
            actual: out.appendingPathComponent("reports/\(report).csv"))
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    @Test(arguments: ["client_days", "adherence_events"])
    func debugTableMatchesTheWorkedExample(table: String) throws {
        let output = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: output) }
        let out = try Self.run(in: output, debugTables: true)
        let problems = try ReportComparison.differences(
            report: table, expected: Self.root.appendingPathComponent("expected/debug/\(table).csv"),
            actual: out.appendingPathComponent("debug/\(table).csv"))
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    @Test func rejectsCarryFileLineAndReason() throws {
        let output = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: output) }
        let out = try Self.run(in: output)
        let problems = try ReportComparison.differences(
            report: "rejects", expected: Self.root.appendingPathComponent("expected/rejects/rejects.csv"),
            actual: out.appendingPathComponent("rejects/rejects.csv"), compareOnly: ["file", "line", "reason"])
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    @Test func accountingMatchesAndBalances() throws {
        let run = try DayfoldProcess.run([
            "validate", Self.root.appendingPathComponent("drop").path, "--as-of", Self.asOf, "--json", "--pipeline",
            Self.root.appendingPathComponent("pipeline.json").path,
        ])
        #expect(run.status == 0, "validate failed: \(run.stderr)")
        let problems = try ReportComparison.accountingDifferences(
            expected: Self.root.appendingPathComponent("expected/accounting.json"), validateJSON: run.stdout)
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }
}
