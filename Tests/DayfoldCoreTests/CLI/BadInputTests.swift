import Foundation
import Testing

/// Bad files never crash the tool and never pass silently (SPEC §9
/// Unreadable files): a clear error naming file and line, or rows rejected.
@Suite struct BadInputTests {
    static let relationships = "relationship_id,client_user_id,status,started_on\nr1,u1,ACTIVE,2026-03-01\n"
    static let instancesHeader = "id,relationship_id,local_date,timezone,task_kind,source_key,status\n"

    func drop(_ files: [String: [UInt8]]) throws -> URL {
        let root = try TestPaths.temporaryDirectory()
        for (path, bytes) in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(bytes).write(to: url)
        }
        return root
    }

    func validate(_ root: URL) throws -> DayfoldProcess {
        try DayfoldProcess.run(["validate", root.path, "--as-of", "2026-03-10T00:00:00Z", "--json"])
    }

    @Test func binaryFileNamedCSVFailsTheRunNamingFileAndLine() throws {
        var noise: [UInt8] = []
        var state: UInt32 = 12345
        for _ in 0..<4096 {
            state = state &* 1_103_515_245 &+ 12345
            noise.append(UInt8(truncatingIfNeeded: state >> 16))
        }
        let root = try drop([
            "subjects/relationships.csv": Array(Self.relationships.utf8), "tasks/instances/i.csv": noise,
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let result = try validate(root)
        #expect(result.status == 1)
        #expect(result.stderr.contains("tasks/instances/i.csv:"))
    }

    /// Task rows and user data are read side by side; when both hold a file
    /// that cannot be read, the error is the one a reading in order meets first.
    @Test func twoUnreadableFilesReportTheTaskFileFirstEveryTime() throws {
        var binary = Array("id,daily_task_instance_id,relationship_id,to_status,occurred_at\n".utf8)
        binary += [0xFF, 0xFE, 0x0A]
        var journal = Array("entry_id,user_id,cooked_at,revision\n".utf8)
        journal += [0xC3, 0x28, 0x0A]
        let root = try drop([
            "subjects/relationships.csv": Array(Self.relationships.utf8),
            "tasks/status_events/e.csv": binary, "journal/j.csv": journal,
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        for _ in 0..<3 {
            let result = try validate(root)
            #expect(result.status == 1)
            #expect(result.stderr.contains("tasks/status_events/e.csv:2:1"), "\(result.stderr)")
            #expect(!result.stderr.contains("journal/j.csv"))
        }
    }

    @Test func truncatedZstdTaskFileFailsTheRun() throws {
        let root = try drop(["subjects/relationships.csv": Array(Self.relationships.utf8)])
        defer { try? FileManager.default.removeItem(at: root) }
        let rows = (0..<2000).map { "t\($0),r1,2026-03-02,UTC,HABIT,k\($0),PENDING\n" }.joined()
        let plain = root.appendingPathComponent("i.csv")
        try Data((Self.instancesHeader + rows).utf8).write(to: plain)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/zstd")
        process.arguments = ["-q", plain.path, "-o", root.appendingPathComponent("tasks/instances/i.csv.zst").path]
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("tasks/instances"), withIntermediateDirectories: true)
        try process.run()
        process.waitUntilExit()
        try FileManager.default.removeItem(at: plain)
        let compressed = root.appendingPathComponent("tasks/instances/i.csv.zst")
        let bytes = try Data(contentsOf: compressed)
        try bytes.prefix(bytes.count - 20).write(to: compressed)
        let result = try validate(root)
        #expect(result.status == 1)
        #expect(result.stderr.contains("tasks/instances/i.csv.zst"))
        #expect(result.stderr.contains("zstd"))
    }

    @Test func emptyAndHeaderOnlyFilesHaveNoRows() throws {
        let root = try drop([
            "subjects/relationships.csv": Array(Self.relationships.utf8), "tasks/instances/a-empty.csv": [],
            "tasks/instances/b-header.csv": Array(Self.instancesHeader.utf8),
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let result = try validate(root)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(#"{"path":"tasks/instances/a-empty.csv","rows_read":0,"accepted":0"#))
        #expect(result.stdout.contains(#"{"path":"tasks/instances/b-header.csv","rows_read":0,"accepted":0"#))
    }

    @Test func tenMegabyteFieldIsReadAsOneRow() throws {
        let note = String(repeating: "n", count: 10 << 20)
        let events =
            "id,daily_task_instance_id,relationship_id,to_status,occurred_at,note\ne1,t1,r1,COMPLETED,2026-03-02T10:00:00Z,\"\(note)\"\n"
        let root = try drop([
            "subjects/relationships.csv": Array(Self.relationships.utf8),
            "tasks/instances/i.csv": Array((Self.instancesHeader + "t1,r1,2026-03-02,UTC,HABIT,k,PENDING\n").utf8),
            "tasks/status_events/e.csv": Array(events.utf8),
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let result = try validate(root)
        #expect(result.status == 0)
        #expect(result.stdout.contains(#"{"path":"tasks/status_events/e.csv","rows_read":1,"accepted":1"#))
    }

    @Test func taskFilesWithoutRelationshipsFailWithAFix() throws {
        let root = try drop(["tasks/instances/i.csv": Array(Self.instancesHeader.utf8)])
        defer { try? FileManager.default.removeItem(at: root) }
        let result = try validate(root)
        #expect(result.status == 1)
        #expect(result.stderr.contains("relationships.csv"))
        #expect(result.stderr.contains("fix:"))
    }
}
