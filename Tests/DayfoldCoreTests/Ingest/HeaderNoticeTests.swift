import Foundation
import Testing

@testable import DayfoldCore

/// SPEC §10 "Headers are checked per file": a header without a required
/// column gets one stderr line with the count of rows it rejected (the
/// per-row rejects of §9 stay); an unknown column within 2 edits of a
/// column the header lacks is a "did you mean" warning, in the manifest
/// and on stderr, for `run` and `validate`.
@Suite struct HeaderNoticeTests {
    static let asOf = "2026-03-10T12:00:00Z"
    static let relationships = "relationship_id,client_user_id,status,started_on\nr1,u1,ACTIVE,2026-03-08\n"

    @Test func aMissingRequiredColumnIsOneStderrLineWithItsRowCount() throws {
        let drop = try HandMadeDrop([
            "subjects/relationships.csv": Self.relationships,
            "tasks/instances/i.csv": """
            id,relationship_id,local_date,timezone,task_kind,source_key,status
            t1,r1,2026-03-08,UTC,HABIT,k1,PENDING

            """,
            "tasks/status_events/e-1.csv": """
            id,daily_task_instance_id,relationship_id,to_status
            e1,t1,r1,COMPLETED
            e2,t1,r1,COMPLETED

            e3,t1,r1,COMPLETED

            """,
            // Health requires its columns of rows of a known type only: the
            // sleep row stays ignored, so 1 row is rejected, not 2.
            "health/h.csv": """
            user_id,type,value,start
            u1,HKQuantityTypeIdentifierStepCount,100,2026-03-08T10:00:00Z
            u1,HKCategoryTypeIdentifierSleepAnalysis,1,2026-03-08T10:00:00Z

            """,
        ])
        defer { drop.remove() }
        let eventsLine =
            "dayfold: tasks/status_events/e-1.csv: header has no occurred_at column; its 3 rows are rejected"
        let healthLine = "dayfold: health/h.csv: header has no unit column; its 1 row is rejected"
        let (validate, rejects) = try drop.validate(asOf: Self.asOf)
        #expect(validate.stderr.contains(eventsLine), "\(validate.stderr)")
        #expect(validate.stderr.contains(healthLine), "\(validate.stderr)")
        #expect(validate.stderr.components(separatedBy: "header has no").count == 3, "one line per file")
        #expect(rejects.filter { $0.hasPrefix("tasks/status_events/e-1.csv") }.count == 3)
        for extra in [[], ["--max-memory", "1K"]] {
            let run = try drop.run(asOf: Self.asOf, extra)
            #expect(run.status == 0)
            #expect(run.stderr.contains(eventsLine), "\(extra): \(run.stderr)")
            #expect(run.stderr.contains(healthLine), "\(extra): \(run.stderr)")
            #expect(run.stderr.components(separatedBy: "header has no").count == 3, "\(extra): \(run.stderr)")
        }
    }

    @Test func aNearMissColumnNameIsADidYouMeanWarning() throws {
        let drop = try HandMadeDrop([
            "subjects/relationships.csv": Self.relationships,
            // `time_zone` is 1 edit from the missing `timezone`; `Status` is
            // `status` in another case; `colour` and `ts` are near nothing.
            "tasks/instances/i.csv": """
            id,relationship_id,local_date,time_zone,task_kind,source_key,Status,colour,ts
            t1,r1,2026-03-08,UTC,HABIT,k1,PENDING,red,1

            """,
            // `device_ids` is near `device_id`, but the header has that one: no hint.
            "tasks/status_events/e.csv": """
            id,daily_task_instance_id,relationship_id,to_status,occurred_at,device_id,device_ids
            e1,t1,r1,COMPLETED,2026-03-08T10:00:00Z,d1,d2

            """,
        ])
        defer { drop.remove() }
        let timezone = "tasks/instances/i.csv: unknown column time_zone; did you mean timezone?"
        let status = "tasks/instances/i.csv: unknown column Status; did you mean status?"
        let (validate, _) = try drop.validate(asOf: Self.asOf)
        #expect(validate.stderr.contains("dayfold: warning: " + timezone), "\(validate.stderr)")
        #expect(validate.stderr.contains("dayfold: warning: " + status), "\(validate.stderr)")
        for extra in [[], ["--max-memory", "1K"]] {
            let run = try drop.run(asOf: Self.asOf, extra)
            #expect(run.status == 0)
            #expect(run.stderr.contains("dayfold: warning: " + timezone), "\(extra): \(run.stderr)")
            let manifest = try JSONSerialization.jsonObject(
                with: Data(contentsOf: drop.output.appendingPathComponent("manifest.json")))
            let warnings = (manifest as? [String: Any])?["warnings"] as? [String] ?? []
            #expect(warnings.filter { $0.contains("did you mean") } == [timezone, status], "\(extra): \(warnings)")
        }
    }

    @Test(
        arguments: [
            ("time_zone", ["timezone", "status"], "timezone"), ("Status", ["status"], "status"),
            ("stauts", ["status"], "status"), ("colour", ["timezone", "status"], nil), ("ts", ["id"], nil),
            ("ids", ["id"], "id"), ("occured_at", ["occurred_at", "recorded_at"], "occurred_at"),
        ] as [(String, [String], String?)])
    func nearestColumnIsWithinTwoEdits(unknown: String, candidates: [String], expected: String?) {
        #expect(ColumnHint.nearest(to: unknown, among: candidates) == expected)
    }
}
