import Foundation
import Testing

@testable import DayfoldCore

/// How `--max-memory` routes push rows (Documentation/Partitioning.md): a
/// task reminder joins its recipient with the task's client; a record id
/// that many users' intents name (a broadcast) joins nobody.
@Suite struct PushRoutingTests {
    /// Four clients, one relationship each; every client gets a MESSAGING
    /// intent naming the same record `broadcast`; c3 also gets a
    /// DAILY_EXECUTION reminder of c4's task `t4`.
    static let files: [String: String] = [
        "subjects/relationships.csv":
            "relationship_id,client_user_id,coach_user_id,status,started_on\n"
            + (1...4).map { "r\($0),c\($0),coach,ACTIVE,2026-01-01" }.joined(separator: "\n") + "\n",
        "tasks/instances/a.csv":
            "id,relationship_id,local_date,timezone,task_kind,source_key,status\n"
            + (1...4).map { "t\($0),r\($0),2026-03-01,UTC,HABIT,k\($0),PENDING" }.joined(separator: "\n") + "\n",
        "push/intents/a.csv":
            "id,recipient_user_id,category,idempotency_key,scheduled_for,status,source_context,source_record_id\n"
            + (1...4).map { "m\($0),c\($0),MESSAGE,km\($0),2026-03-01T10:00:00Z,SENT,MESSAGING,broadcast" }
            .joined(separator: "\n")
            + "\nx3,c3,COACH_TASK,kx3,2026-03-01T09:00:00Z,SENT,DAILY_EXECUTION,t4\n",
    ]

    static func partitionOfUser() throws -> [String: Int] {
        let drop = try HandMadeDrop(files)
        defer { drop.remove() }
        let layout = try DropLayout(root: drop.drop.path)
        let router = try PartitionRouter(
            layout: layout, options: IngestOptions(asOf: Instant(seconds: 1_775_000_000)), partitions: 4,
            root: drop.root.appendingPathComponent("spill").path)
        _ = try router.run()
        var partition: [String: Int] = [:]
        for (index, users) in router.ownedUsers().enumerated() { for user in users { partition[user] = index } }
        return partition
    }

    @Test func aTaskReminderJoinsItsRecipientWithTheTasksClient() throws {
        let partition = try Self.partitionOfUser()
        // x3 reminds c3 of c4's task: its after_task_done needs c4's outcome in c3's partition.
        #expect(partition["c3"] != nil && partition["c3"] == partition["c4"])
    }

    @Test func aRecordNamedByManyUsersIntentsJoinsNobody() throws {
        let partition = try Self.partitionOfUser()
        // c1 and c2 share only the broadcast record: three groups (c1, c2, c3+c4) over four partitions.
        #expect(partition["c1"] != nil && partition["c2"] != nil)
        #expect(partition["c1"] != partition["c2"])
        #expect(partition["c1"] != partition["c3"] && partition["c2"] != partition["c3"])
    }
}

/// Push files are read on a thread of their own beside the other kinds: a
/// drop whose task files cannot be read must fail as before (exit 1, the
/// file named), whatever the push side is doing, and never hang.
@Suite struct PushSideTests {
    @Test func anUnreadableTaskFileFailsTheRunWithoutHangingThePushSide() throws {
        var files = PushRoutingTests.files
        // Not zstd at all: reading the instances fails before the tasks are known.
        files["tasks/instances/b.csv.zst"] = "this is no zstd frame"
        let drop = try HandMadeDrop(files)
        defer { drop.remove() }
        let result = try BoundedProcess.run(
            ["run", "--input", drop.drop.path, "--output", drop.output.path, "--as-of", "2026-03-02T00:00:00Z"],
            limit: 30)
        #expect(!result.timedOut, "the run hung")
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("tasks/instances/b.csv.zst"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: drop.output.path), "nothing is published")
    }
}
