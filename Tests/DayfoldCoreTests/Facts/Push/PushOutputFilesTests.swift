import Foundation
import Testing

/// SPEC §11.3: "Without a `push/` folder none of these files is written
/// (and the manifest says so); with one, all four snapshots and three
/// reports are, even when empty (header only)" — with the columns §11.3
/// lists, in its order.
@Suite struct PushOutputFilesTests {
    static let asOf = "2026-03-10T12:00:00Z"
    static let relationships =
        "relationship_id,client_user_id,coach_user_id,status,started_on\nr1,u1,c1,ACTIVE,2026-03-01\n"

    /// §11.3's column lists, copied from the SPEC text.
    static let headers: [String: String] = [
        "push_deliveries":
            "delivery_id,intent_id,recipient_user_id,relationship_id,installation_id,provider,platform,app_surface,"
            + "app_version,category,day,sent_at,outcome,error_class,retryable,attempt_count,in_quiet_hours,"
            + "after_task_done,to_invalid_token",
        "push_delivery_health":
            "day,provider,platform,app_surface,app_version,category,deliveries,sent,delivered,sent_unconfirmed,"
            + "pending,failed,failed_token_invalid,failed_payload_too_big,failed_rate_limited,failed_credentials,"
            + "failed_sender_mismatch,failed_transient,failed_other,delivery_rate,sent_in_quiet_hours,"
            + "sent_after_task_done,sent_to_invalid_token",
        "push_intent_summary": "day,category,intents,with_delivery,delivered,cancelled,expired,suppressed,unsent",
        "reminder_effectiveness":
            "relationship_id,client_user_id,coach_user_id,window_from,window_to,scored_tasks,reminded_tasks,"
            + "reminded_completed,reminded_completion_rate,unreminded_tasks,unreminded_completed,"
            + "unreminded_completion_rate,completed_within_2h,wasted_reminders",
    ]

    static func manifestOutputs(_ drop: HandMadeDrop) throws -> [String: Int] {
        let bytes = try Data(contentsOf: drop.output.appendingPathComponent("manifest.json"))
        let manifest = try JSONSerialization.jsonObject(with: bytes) as? [String: Any]
        let outputs = manifest?["outputs"] as? [[String: Any]] ?? []
        return Dictionary(
            uniqueKeysWithValues: outputs.map {
                ($0["path"] as? String ?? "", ($0["rows"] as? NSNumber)?.intValue ?? -1)
            })
    }

    /// notification_preferences.csv alone is no push folder.
    @Test func withoutAPushFolderNoPushFileIsWritten() throws {
        let drop = try HandMadeDrop([
            "subjects/relationships.csv": Self.relationships,
            "subjects/notification_preferences.csv": "user_id,effective_from,quiet_start,quiet_end\n"
                + "u1,2026-03-01T00:00:00Z,22:00,07:00\n",
        ])
        defer { drop.remove() }
        let run = try drop.run(asOf: Self.asOf)
        #expect(run.status == 0, "\(run.stderr)")
        let written = FileManager.default.subpaths(atPath: drop.output.path) ?? []
        #expect(written.contains("reports/streaks.csv"), "the run wrote its other outputs")
        let pushFiles = written.filter { path in Self.headers.keys.contains { path.contains($0) } }
        #expect(pushFiles.isEmpty, "\(pushFiles)")
        let listed = try Self.manifestOutputs(drop).keys.filter { path in
            Self.headers.keys.contains { path.contains($0) }
        }
        #expect(listed.isEmpty, "\(listed)")
    }

    /// A push/ folder holding one header-only file, or nothing at all.
    @Test(arguments: [true, false])
    func withAnEmptyPushFolderEveryPushOutputIsWrittenHeaderOnly(headerOnlyFile: Bool) throws {
        var files = ["subjects/relationships.csv": Self.relationships]
        if headerOnlyFile { files["push/installations/x.csv"] = PushDrop.installationHeader + "\n" }
        let drop = try HandMadeDrop(files)
        defer { drop.remove() }
        if !headerOnlyFile {
            try FileManager.default.createDirectory(
                at: drop.drop.appendingPathComponent("push"), withIntermediateDirectories: true)
        }
        let run = try drop.run(asOf: Self.asOf)
        #expect(run.status == 0, "\(run.stderr)")
        let outputs = try Self.manifestOutputs(drop)
        for (name, header) in Self.headers {
            // Four snapshots, each with 0 rows in the manifest.
            #expect(outputs["snapshots/\(name).parquet"] == 0, "\(name) snapshot")
            let debug = try String(
                decoding: Data(contentsOf: drop.output.appendingPathComponent("debug/\(name).csv")), as: UTF8.self)
            #expect(debug == header + "\n", "debug/\(name).csv")
        }
        // Three reports (push_deliveries is a snapshot only), header only.
        for name in ["push_delivery_health", "push_intent_summary", "reminder_effectiveness"] {
            #expect(outputs["reports/\(name).csv"] == 0, "\(name) report")
            let report = try String(
                decoding: Data(contentsOf: drop.output.appendingPathComponent("reports/\(name).csv")), as: UTF8.self)
            #expect(report == (Self.headers[name] ?? "") + "\n", "reports/\(name).csv")
        }
        #expect(outputs["reports/push_deliveries.csv"] == nil)
    }
}
