import Foundation
import Testing

@testable import DayfoldCore

/// A run with a state copies the month blocks of `adherence_events`,
/// `push_deliveries` and `relationship_days` that the previous run's files
/// hold unchanged (`SnapshotBlockWriter`): after an edit to one value a row
/// is built from, in an old month, the edited month is built again and the
/// snapshots are byte for byte a full run's. Each edit touches one input of
/// `ReportTables.adherenceEventFingerprints`, `pushDeliveryFingerprints` or
/// `relationshipDayFingerprints` only, so a digest that left that input out
/// would copy a stale month.
@Suite struct CopiedEventBlocksTests {
    static let skip =
        "d1053fe5-c531-4231-b910-e97910383fc7,c53b2cc4-b3ae-4903-9448-6b31b8451c59,aab15696-d93c-547f-ae38-d2b7de2dacf9,"
    static let instance =
        "bc44f027-3ffa-48b6-96e9-84098939aebe,e8b7c48f-b2ea-5f1c-968a-7078b48b9f79,f31a53f4-8992-59b6-aa65-9a845dbdce51,"
    static let relationship =
        "aab15696-d93c-547f-ae38-d2b7de2dacf9,7ad7be43-8f0a-5167-afee-b0a745ed52c6,d822c40f-efdb-5c2c-995b-f9740a1ebbee,"
        + "1afdb45e-7b27-53a4-a752-9994cb274d82,"
    static let completion =
        "feb9c652-51c8-44a8-94e6-6f9976ec9d51,544732f7-bcdb-4601-8857-14764e9aa8de,aab15696-d93c-547f-ae38-d2b7de2dacf9,"
    static let delivery =
        "cf09a2d6-0e87-5797-a1bb-2b9465427c54,2c2233d4-31d6-579c-8801-0c966579dd47,9532b4f3-12a4-5b7b-85f0-39748a3b74ab,"

    /// One value of one row changed: which file, what text becomes what,
    /// the table it shows in, and whether some of its months are still copied.
    struct Edit: Sendable {
        var file: String
        var text: String
        var replacement: String
        var table: String
        var copies: Bool
    }

    static let edits: [Edit] = [
        // The skip reason of a task's one event (2026-02-01): January and March are copied.
        Edit(
            file: "tasks/status_events/events-000.csv", text: skip + "PENDING,SKIPPED,TRAVEL,",
            replacement: skip + "PENDING,SKIPPED,ILLNESS,", table: "adherence_events", copies: true),
        // A completion's instant, a minute later (2026-01-31, still on time).
        Edit(
            file: "tasks/status_events/events-000.csv", text: "2026-01-31T11:35:00.250+09:00",
            replacement: "2026-01-31T11:36:00.250+09:00", table: "adherence_events", copies: true),
        // A task's kind (2026-01-31, a check-in made a workout).
        Edit(
            file: "tasks/instances/instances-000.csv", text: instance + "2026-01-31,America/Los_Angeles,CHECK_IN,",
            replacement: instance + "2026-01-31,America/Los_Angeles,WORKOUT,", table: "adherence_events", copies: true),
        // A relationship's status, a detail column of each of its rows: the
        // relationship has events in every month, so no month is copied.
        Edit(
            file: "subjects/relationships.csv", text: relationship + "ACTIVE,", replacement: relationship + "PAUSED,",
            table: "adherence_events", copies: false),
        // A delivery's attempt count (sent 2026-01-31): February and March are copied.
        Edit(
            file: "push/deliveries/deliveries-000.csv", text: delivery + "EXPO,DELIVERED,1,",
            replacement: delivery + "EXPO,DELIVERED,2,", table: "push_deliveries", copies: true),
        // The same delivery's provider.
        Edit(
            file: "push/deliveries/deliveries-000.csv", text: delivery + "EXPO,DELIVERED,1,",
            replacement: delivery + "FCM,DELIVERED,1,", table: "push_deliveries", copies: true),
        // A completion made a skip (2026-01-31): the day's counts change, so
        // January's relationship days are built again, the other months copied.
        Edit(
            file: "tasks/status_events/events-000.csv", text: completion + "PENDING,COMPLETED,",
            replacement: completion + "PENDING,SKIPPED,", table: "relationship_days", copies: true),
    ]

    static let snapshots = ["adherence_events", "push_deliveries", "relationship_days"]

    @Test(arguments: 0..<7)
    func anEditedOldMonthIsBuiltAgainAndTheRestCopied(edit index: Int) throws {
        let edit = Self.edits[index]
        let root = try TestPaths.temporaryDirectory("copied-\(index)")
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
        let file = drop.appendingPathComponent(edit.file)
        let before = try String(contentsOf: file, encoding: .utf8)
        #expect(before.components(separatedBy: edit.text).count == 2, "\(edit.text) is in \(edit.file) once")
        try before.replacingOccurrences(of: edit.text, with: edit.replacement)
            .write(to: file, atomically: true, encoding: .utf8)
        let manifest = try run("nightly", ["--state", state])
        _ = try run("full", [])
        for file in Self.snapshots.map({ "snapshots/\($0).parquet" }) + ["reports/coach_daily_summary.csv"] {
            let nightly = try Data(contentsOf: root.appendingPathComponent("nightly/\(file)"))
            let full = try Data(contentsOf: root.appendingPathComponent("full/\(file)"))
            #expect(nightly == full, "edit \(index): \(file) is not the full run's")
        }
        // SampleData's events and deliveries span January to March: the
        // untouched months are copied, the edited one is not.
        let reason = manifest["reason"] as? String ?? ""
        let counts = Self.copied(edit.table, in: reason)
        #expect((counts.map { $0.copied > 0 } ?? false) == edit.copies, "\(reason)")
        #expect(counts.map { $0.copied < $0.blocks } ?? true, "the edited month was copied: \(reason)")
        #expect(manifest["mode"] as? String == "incremental", "\(reason)")
    }

    /// The nightly case: the state written as of the night before, the
    /// drop unchanged. Every month but the last is copied (for
    /// `relationship_days`, with its `as_of` encoded again), and every file
    /// is the full run's.
    @Test func aNightLaterTheClosedMonthsAreCopiedWithTheNewAsOf() throws {
        let root = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let sample = TestPaths.repositoryRoot.appendingPathComponent("SampleData/demo").path
        let state = root.appendingPathComponent("state").path
        func run(_ output: String, _ asOf: String, _ extra: [String]) throws -> [String: Any] {
            let result = try DayfoldProcess.run(
                ["run", "--input", sample, "--output", root.appendingPathComponent(output).path, "--as-of", asOf]
                    + extra)
            #expect(result.status == 0, "\(result.stderr)")
            return try IncrementalRunTests.manifestJSON(root.appendingPathComponent(output))
        }
        _ = try run("nightly", "2026-03-30T18:00:00Z", ["--state", state])
        let manifest = try run("nightly", "2026-03-31T18:00:00Z", ["--state", state])
        _ = try run("full", "2026-03-31T18:00:00Z", [])
        let full = try TreeSnapshot.of(root.appendingPathComponent("full"))
        let nightly = try TreeSnapshot.of(root.appendingPathComponent("nightly"))
        #expect(full.count > 10)
        for (path, entry) in full where path != "manifest.json" {
            #expect(nightly[path] == entry, "\(path) is not the full run's")
        }
        let reason = manifest["reason"] as? String ?? ""
        for name in Self.snapshots {
            let counts = Self.copied(name, in: reason)
            #expect(counts.map { $0.copied > 0 && $0.copied < $0.blocks } == true, "\(name): \(reason)")
        }
    }

    /// "N of M month blocks of `table`" in a manifest's reason.
    static func copied(_ table: String, in reason: String) -> (copied: Int, blocks: Int)? {
        guard let range = reason.range(of: " month blocks of \(table)") else { return nil }
        let words = Array(reason[..<range.lowerBound].split(separator: " ").suffix(3))
        guard words.count == 3, words[1] == "of", let copied = Int(words[0]), let blocks = Int(words[2]) else {
            return nil
        }
        return (copied, blocks)
    }
}
