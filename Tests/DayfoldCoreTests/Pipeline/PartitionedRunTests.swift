import DayfoldGenerate
import Foundation
import Testing

@testable import DayfoldCore

/// Under a memory budget the drop is split by client user and merged back:
/// reports, snapshots, rejects and accounting must be byte-identical to a
/// whole run (SPEC §8: "outputs are identical either way").
@Suite struct PartitionedRunTests {
    static let files = [
        "reports/coach_daily_summary.csv", "reports/streaks.csv", "reports/risk_signals.csv",
        "reports/progress_ranges.csv", "rejects/rejects.csv", "snapshots/relationship_days.parquet",
        "snapshots/client_days.parquet", "snapshots/adherence_events.parquet", "snapshots/streaks.parquet",
        "snapshots/risk_signals.parquet", "snapshots/progress_ranges.parquet",
    ]
    /// SPEC §11.3's outputs, for drops with push/.
    static let pushFiles = [
        "reports/push_delivery_health.csv", "reports/push_intent_summary.csv", "reports/reminder_effectiveness.csv",
        "snapshots/push_deliveries.parquet", "snapshots/push_delivery_health.parquet",
        "snapshots/push_intent_summary.parquet", "snapshots/reminder_effectiveness.parquet",
    ]

    /// Runs whole and partitioned; returns the files that differ.
    static func differences(input: URL, pipeline: [String], asOf: String, budget: String) throws -> [String] {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var manifests: [String] = []
        for (name, extra) in [("whole", [String]()), ("parts", ["--max-memory", budget])] {
            let result = try DayfoldProcess.run(
                ["run"] + pipeline + [
                    "--input", input.path, "--output", directory.appendingPathComponent(name).path, "--as-of", asOf,
                ] + extra)
            #expect(result.status == 0 || result.status == 3, "\(name): \(result.stderr)")
            let manifest = try String(
                contentsOf: directory.appendingPathComponent("\(name)/manifest.json"), encoding: .utf8)
            manifests.append(manifest.split(separator: "\n").filter { !$0.contains("timings") }.joined(separator: "\n"))
        }
        let push = FileManager.default.fileExists(atPath: input.appendingPathComponent("push").path)
        var different = (files + (push ? pushFiles : [])).filter { file in
            let whole = try? Data(contentsOf: directory.appendingPathComponent("whole/\(file)"))
            let parts = try? Data(contentsOf: directory.appendingPathComponent("parts/\(file)"))
            return whole == nil || whole != parts
        }
        if manifests[0] != manifests[1] { different.append("manifest.json (accounting, outputs, warnings)") }
        return different
    }

    @Test func conformanceDropPartitionedIsIdentical() throws {
        let root = TestPaths.fixtures.appendingPathComponent("Conformance")
        let different = try Self.differences(
            input: root.appendingPathComponent("drop"), pipeline: [root.appendingPathComponent("pipeline.json").path],
            asOf: "2026-03-29T09:30:00Z", budget: "1K")
        #expect(different.isEmpty, "\(different)")
    }

    /// Push rows go with their recipient's partition, joined with the
    /// intents, deliveries, receipts and tasks they name (SPEC §11 on top of
    /// every earlier rule); the two summaries are summed over partitions.
    @Test func pushConformanceDropPartitionedIsIdentical() throws {
        let root = TestPaths.fixtures.appendingPathComponent("ConformancePush")
        let different = try Self.differences(
            input: root.appendingPathComponent("drop"), pipeline: [root.appendingPathComponent("pipeline.json").path],
            asOf: "2026-04-05T09:30:00Z", budget: "1K")
        #expect(different.isEmpty, "\(different)")
    }

    /// Runs the sample drop, given by a relative path from the repository
    /// root, under a 100K budget; returns its manifest and standard output.
    static func sampleUnderABudget() throws -> (manifest: String, stdout: String) {
        let output = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: output) }
        let result = try DayfoldProcess.run(
            [
                "run", "Pipelines/sample.json", "--input", "SampleData/demo", "--output",
                output.appendingPathComponent("out").path, "--as-of", "2026-03-31T18:00:00Z", "--max-memory", "100K",
            ], currentDirectory: TestPaths.repositoryRoot)
        #expect(result.status == 0, "\(result.stderr)")
        let manifest = try String(contentsOf: output.appendingPathComponent("out/manifest.json"), encoding: .utf8)
        return (manifest, result.stdout)
    }

    /// Spill files are `.zst` whatever the input was: accounts must still
    /// name the input files (a plain `.csv` stays `.csv` in the manifest).
    @Test func accountsNameTheInputFilesNotTheSpill() throws {
        let manifest = try Self.sampleUnderABudget().manifest
        #expect(manifest.contains("\"tasks/instances/instances-000.csv\""))
        #expect(manifest.contains("\"tasks/instances/instances-001.csv.zst\""))
        #expect(!manifest.contains("instances-000.csv.zst"))
    }

    /// Spill folders link the subject files: a drop given by a relative path
    /// (as users type it) must still be found from there.
    @Test func aRelativeInputPathWorksUnderABudget() throws {
        let (manifest, stdout) = try Self.sampleUnderABudget()
        #expect(
            manifest.contains("\"rows_read\": 8993") || manifest.contains("\"rows_read\":8993")
                || stdout.contains("8993 rows read"))
    }

    @Test func sampleDropPartitionedIsIdentical() throws {
        let different = try Self.differences(
            input: TestPaths.repositoryRoot.appendingPathComponent("SampleData/demo"),
            pipeline: [TestPaths.repositoryRoot.appendingPathComponent("Pipelines/sample.json").path],
            asOf: "2026-03-31T18:00:00Z", budget: "100K")
        #expect(different.isEmpty, "\(different)")
    }

    @Test func generatedDropPartitionedIsIdentical() throws {
        let root = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let drop = root.appendingPathComponent("drop")
        _ = try DropGenerator.generate(
            DropGeneratorOptions(clients: 60, days: 45, seed: 9, output: drop.path, zstd: true))
        let different = try Self.differences(input: drop, pipeline: [], asOf: "2026-04-01T00:00:00Z", budget: "2M")
        #expect(different.isEmpty, "\(different)")
    }

    /// Ids that cross users join their groups: an instance re-exported under
    /// another client's relationship, events naming it through either, an
    /// event id reused across clients, a journal entry id under two users.
    @Test func idsSharedAcrossUsersKeepTheirRowsTogether() throws {
        let root = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let files: [String: String] = [
            "subjects/relationships.csv": """
            relationship_id,client_user_id,status,started_on
            r1,u1,ACTIVE,2026-03-01
            r2,u2,ACTIVE,2026-03-01
            r3,u3,ACTIVE,2026-03-01
            r4,u4,ACTIVE,2026-03-01

            """,
            "tasks/instances/a.csv": """
            id,relationship_id,local_date,timezone,task_kind,source_key,status
            t1,r1,2026-03-02,UTC,HABIT,k1,PENDING
            t2,r3,2026-03-02,UTC,HABIT,k2,PENDING
            t3,r4,2026-03-02,UTC,HABIT,k3,PENDING

            """,
            "tasks/instances/b.csv": """
            id,relationship_id,local_date,timezone,task_kind,source_key,status
            t1,r2,2026-03-02,UTC,HABIT,k1,PENDING

            """,
            "tasks/status_events/e.csv": """
            id,daily_task_instance_id,relationship_id,to_status,occurred_at
            e1,t1,r1,COMPLETED,2026-03-02T10:00:00Z
            e2,t1,r2,COMPLETED,2026-03-02T11:00:00Z
            e3,t2,r3,COMPLETED,2026-03-02T10:00:00Z
            e3,t3,r4,COMPLETED,2026-03-02T10:00:00Z

            """,
            "journal/j.csv": """
            entry_id,user_id,cooked_at,revision,energy_kcal
            m1,u3,2026-03-02T12:00:00Z,1,500
            m1,u4,2026-03-02T13:00:00Z,2,300

            """,
        ]
        for (path, text) in files {
            let url = root.appendingPathComponent("drop/\(path)")
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        let different = try Self.differences(
            input: root.appendingPathComponent("drop"), pipeline: [], asOf: "2026-03-06T00:00:00Z", budget: "1")
        #expect(different.isEmpty, "\(different)")
    }
}
