import Foundation
import Testing

@testable import DayfoldCore

/// Runs `dayfold` on the push conformance drop (SPEC §11 on top of every
/// earlier rule, worked out independently of dayfold) and compares every
/// report, the push snapshot's debug table, rejects and accounting; then
/// greps every output for the canary planted in the never-read columns.
@Suite(.serialized) struct ConformancePushTests {
    static let root = TestPaths.fixtures.appendingPathComponent("ConformancePush")
    static let asOf = "2026-04-05T09:30:00Z"
    static let canary = "CANARY-PUSH-7f3a"

    /// Where the worked example and SPEC.md disagree, SPEC.md rules. §11.1:
    /// a push recipient's zone falls back to the installation's `timezone`,
    /// then `default_timezone`, then UTC — "never the offset written in a
    /// server's instant". The worked example reads three sends of users with
    /// no zone of their own in the offset each `sent_at` was written with:
    /// - 3d1b0db4 (user c4a173ec, installation in America/Los_Angeles):
    ///   10:30Z is 03:30 there, inside 22:00–07:00 (the example: 10:30, outside);
    /// - 3e999783 (the same user): 00:52Z is 16:52 there, outside (the example: 00:52, inside);
    /// - cdb38dfe (coach 659942f7, installation without a zone, no default):
    ///   07:30+01:00 is 06:30 UTC, inside (the example: 07:30, outside).
    static let specOverrides: [String: [String: String?]] = [
        "push_deliveries": [
            "3d1b0db4-b4f1-4d97-8b58-f1e74c619adf in_quiet_hours": "true",
            "3e999783-c2f2-4376-9ffa-87ec12ca2a45 in_quiet_hours": "false",
            "cdb38dfe-13ca-49ae-a524-004a38d63e27 in_quiet_hours": "true",
        ],
        "push_delivery_health": [
            "2026-03-28|EXPO|ANDROID|CLIENT_MOBILE|2.3.0|MESSAGE sent_in_quiet_hours": "1",
            "2026-03-07|EXPO|ANDROID|CLIENT_MOBILE|2.3.0|WORKOUT_DUE sent_in_quiet_hours": "0",
            "2026-03-31|EXPO|ANDROID|COACH_MOBILE|5.1.0|MESSAGE sent_in_quiet_hours": "1",
        ],
    ]

    /// One run for the whole suite: the drop is 60,000 rows and every test reads the same outputs.
    static let output: Result<URL, any Error> = Result {
        let directory = try TestPaths.temporaryDirectory()
        let output = directory.appendingPathComponent("out")
        let result = try DayfoldProcess.run([
            "run", root.appendingPathComponent("pipeline.json").path, "--input",
            root.appendingPathComponent("drop").path, "--output", output.path, "--as-of", asOf, "--debug-tables",
        ])
        guard result.status == 0 else {
            throw DayfoldError(.input, "dayfold run failed (\(result.status)): \(result.stderr)")
        }
        return output
    }

    @Test(arguments: [
        "coach_daily_summary", "streaks", "risk_signals", "progress_ranges", "push_delivery_health",
        "push_intent_summary", "reminder_effectiveness",
    ])
    func reportMatchesTheWorkedExample(report: String) throws {
        let out = try Self.output.get()
        let problems = try ReportComparison.differences(
            report: report, expected: Self.root.appendingPathComponent("expected/reports/\(report).csv"),
            actual: out.appendingPathComponent("reports/\(report).csv"), overrides: Self.specOverrides[report] ?? [:])
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    @Test(arguments: ["push_deliveries", "client_days", "adherence_events"])
    func debugTableMatchesTheWorkedExample(table: String) throws {
        let out = try Self.output.get()
        let problems = try ReportComparison.differences(
            report: table, expected: Self.root.appendingPathComponent("expected/debug/\(table).csv.zst"),
            actual: out.appendingPathComponent("debug/\(table).csv"), overrides: Self.specOverrides[table] ?? [:])
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    @Test func rejectsCarryFileLineAndReason() throws {
        let out = try Self.output.get()
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

    /// SPEC §11.3: with push/, all four snapshots and three reports are
    /// written and listed in the manifest, which says the push tables were written.
    @Test func theManifestListsEveryPushTable() throws {
        let out = try Self.output.get()
        let manifest = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("manifest.json")))
                as? [String: Any])
        #expect(manifest["push_outputs"] as? String == "written")
        let paths = Set((manifest["outputs"] as? [[String: Any]] ?? []).compactMap { $0["path"] as? String })
        let push = [
            "snapshots/push_deliveries.parquet", "snapshots/push_delivery_health.parquet",
            "snapshots/push_intent_summary.parquet", "snapshots/reminder_effectiveness.parquet",
            "reports/push_delivery_health.csv", "reports/push_intent_summary.csv",
            "reports/reminder_effectiveness.csv",
        ]
        #expect(Set(push).isSubset(of: paths), "missing: \(Set(push).subtracting(paths).sorted())")
    }

    /// SPEC §11.1: tokens, payloads and error details are never read; the
    /// canary in each of those columns reaches no snapshot, report, debug
    /// table or manifest value (rejects.csv blanks them in `raw`, too).
    @Test func theCanaryInNeverReadColumnsReachesNoOutput() throws {
        let out = try Self.output.get()
        let files = try TreeSnapshot.of(out).filter { $0.value.hasPrefix("file") }.keys.sorted()
        #expect(files.contains("snapshots/push_deliveries.parquet"), "the push snapshot is missing")
        for file in files {
            let path = out.appendingPathComponent(file).path
            // Snapshots are zstd-compressed: read their values back, every row.
            let text =
                file.hasSuffix(".parquet")
                ? try SnapshotInspector.describe(path: path, rows: Int.max)
                : String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
            #expect(!text.contains(Self.canary), "\(file) carries the canary")
        }
    }
}
