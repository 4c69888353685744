import Foundation
import Testing

@testable import DayfoldCore

/// A run with a state copies the month blocks of `adherence_events` that the
/// previous run's file holds unchanged (`SnapshotBlockWriter`): after an
/// edit to one value an event row is built from, in an old month, the
/// edited month is built again and the snapshot is byte for byte a full
/// run's. Each edit touches one input of `ReportTables.adherenceEventFingerprints`
/// only, so a digest that left that input out would copy a stale month.
@Suite struct CopiedEventBlocksTests {
    static let skip =
        "d1053fe5-c531-4231-b910-e97910383fc7,c53b2cc4-b3ae-4903-9448-6b31b8451c59,aab15696-d93c-547f-ae38-d2b7de2dacf9,"
    static let instance =
        "bc44f027-3ffa-48b6-96e9-84098939aebe,e8b7c48f-b2ea-5f1c-968a-7078b48b9f79,f31a53f4-8992-59b6-aa65-9a845dbdce51,"
    static let relationship =
        "aab15696-d93c-547f-ae38-d2b7de2dacf9,7ad7be43-8f0a-5167-afee-b0a745ed52c6,d822c40f-efdb-5c2c-995b-f9740a1ebbee,"
        + "1afdb45e-7b27-53a4-a752-9994cb274d82,"

    /// (file, text, replacement, months copied): one value of one row.
    static let edits: [(String, String, String, Bool)] = [
        // The skip reason of a task's one event (2026-02-01): January and March are copied.
        (
            "tasks/status_events/events-000.csv", skip + "PENDING,SKIPPED,TRAVEL,", skip + "PENDING,SKIPPED,ILLNESS,",
            true
        ),
        // A completion's instant, a minute later (2026-01-31, still on time).
        (
            "tasks/status_events/events-000.csv", "2026-01-31T11:35:00.250+09:00", "2026-01-31T11:36:00.250+09:00",
            true
        ),
        // A task's kind (2026-01-31, a check-in made a workout).
        (
            "tasks/instances/instances-000.csv", instance + "2026-01-31,America/Los_Angeles,CHECK_IN,",
            instance + "2026-01-31,America/Los_Angeles,WORKOUT,", true
        ),
        // A relationship's status, a detail column of each of its rows: the
        // relationship has events in every month, so no month is copied.
        ("subjects/relationships.csv", relationship + "ACTIVE,", relationship + "PAUSED,", false),
    ]

    @Test(arguments: 0..<4)
    func anEditedOldMonthIsBuiltAgainAndTheRestCopied(edit: Int) throws {
        let root = try TestPaths.temporaryDirectory("copied-\(edit)")
        defer { try? FileManager.default.removeItem(at: root) }
        let drop = root.appendingPathComponent("drop")
        try FileManager.default.copyItem(
            at: TestPaths.repositoryRoot.appendingPathComponent("SampleData/demo"), to: drop)
        let state = root.appendingPathComponent("state").path
        func run(_ output: String, _ extra: [String]) throws -> [String: Any] {
            let result = try DayfoldProcess.run(
                [
                    "run", "--input", drop.path, "--output", root.appendingPathComponent(output).path,
                    "--as-of", "2026-03-31T18:00:00Z",
                ] + extra)
            #expect(result.status == 0, "\(result.stderr)")
            return try IncrementalRunTests.manifestJSON(root.appendingPathComponent(output))
        }
        _ = try run("nightly", ["--state", state])
        let (path, text, replacement, copies) = Self.edits[edit]
        let file = drop.appendingPathComponent(path)
        let before = try String(contentsOf: file, encoding: .utf8)
        #expect(before.components(separatedBy: text).count == 2, "\(text) is in \(path) once")
        try before.replacingOccurrences(of: text, with: replacement).write(to: file, atomically: true, encoding: .utf8)
        let manifest = try run("nightly", ["--state", state])
        _ = try run("full", [])
        let snapshot = "snapshots/adherence_events.parquet"
        let nightly = try Data(contentsOf: root.appendingPathComponent("nightly/\(snapshot)"))
        let full = try Data(contentsOf: root.appendingPathComponent("full/\(snapshot)"))
        #expect(nightly == full, "edit \(edit): the snapshot is not the full run's")
        let reason = manifest["reason"] as? String ?? ""
        // SampleData's events span January to March: the untouched months are copied.
        #expect(reason.contains("month blocks of adherence_events were copied") == copies, "\(reason)")
        #expect(manifest["mode"] as? String == (copies ? "incremental" : "full"), "\(reason)")
        #expect(!reason.contains("3 of 3 month blocks"), "the edited month was copied: \(reason)")
    }
}
