import Foundation
import Testing

/// SPEC §10 "Hostile and broken input never crashes, hangs or leaks", the
/// value rules: ids (`bad_id`), date and instant bounds, number bounds
/// (`out_of_range`). Each drop is hand-made; the rejects listed are worked
/// out from the rules row by row.
@Suite struct HostileValueTests {
    static let asOf = "2026-03-10T12:00:00Z"
    static let nul = "\u{0}"
    static let esc = "\u{1B}"

    /// Ids longer than 256 bytes or holding a control character are
    /// rejected in every kind, required or optional; 256 bytes is fine; a
    /// health row of an unknown type stays ignored whatever its id holds.
    @Test func controlCharactersAndLongIDsAreRejectedInEveryKind() throws {
        let longest = String(repeating: "a", count: 256)
        let tooLong = String(repeating: "b", count: 257)
        let drop = try HandMadeDrop([
            "subjects/relationships.csv": """
            relationship_id,client_user_id,coach_user_id,status,started_on
            r1,u1,c1,ACTIVE,2026-03-06
            r\(Self.nul)x,u2,,ACTIVE,2026-03-06
            r2,u\(Self.esc)[31m,,ACTIVE,2026-03-06
            r3,u3,c\u{7F},ACTIVE,2026-03-06

            """,
            "subjects/timezones.csv": "user_id,timezone,effective_from\nu\u{1F},UTC,2026-01-01T00:00:00Z\n",
            "subjects/goals.csv":
                "user_id,metric,target,provenance,effective_on\nu1\u{7F},energy_kcal,2000,CONFIRMED,2026-01-01\n",
            "subjects/preferences.csv": "user_id,progress_source\nu\(Self.nul),APPLE_HEALTH\n",
            "tasks/instances/i.csv": """
            id,relationship_id,local_date,timezone,task_kind,source_key,status
            t1,r1,2026-03-08,UTC,HABIT,k1,PENDING
            \(longest),r1,2026-03-08,UTC,HABIT,k2,PENDING
            \(tooLong),r1,2026-03-08,UTC,HABIT,k3,PENDING
            t\(Self.nul),r1,2026-03-08,UTC,HABIT,k4,PENDING
            t5,r1,2026-03-08,UTC,HABIT,k\(Self.esc)5,PENDING

            """,
            "tasks/status_events/e.csv": """
            id,daily_task_instance_id,relationship_id,to_status,occurred_at,device_id
            e1,t1,r1,COMPLETED,2026-03-08T10:00:00Z,
            e\(Self.esc),t1,r1,COMPLETED,2026-03-08T11:00:00Z,
            e3,t1,r1,COMPLETED,2026-03-08T11:00:00Z,d\(Self.nul)

            """,
            "tasks/value_entries/v.csv": """
            id,daily_task_instance_id,relationship_id,value,recorded_at,client_operation_id
            v1,t1,r1,1,2026-03-08T10:00:00Z,op\(Self.esc)

            """,
            "tasks/info_cards/c.csv": "id,relationship_id,local_date,card_key\nc1,r1,2026-03-08,k\(Self.nul)\n",
            "tasks/workout_logs/w.csv": """
            id,relationship_id,assignment_id,program_day_id,local_date,status
            w1,r1,a\u{1},p1,2026-03-08,COMPLETED

            """,
            "journal/j.csv":
                "entry_id,user_id,cooked_at,revision,energy_kcal\nj\(Self.esc),u1,2026-03-08T12:00:00Z,1,500\n",
            "health/h.csv": """
            user_id,type,value,unit,start,source_bundle_id
            u1,HKQuantityTypeIdentifierStepCount,100,count,2026-03-08T10:00:00Z,
            u\(Self.nul),HKQuantityTypeIdentifierStepCount,100,count,2026-03-08T10:00:00Z,
            u1,HKQuantityTypeIdentifierStepCount,100,count,2026-03-08T11:00:00Z,com.x\(Self.esc)
            u\(Self.nul),HKCategoryTypeIdentifierSleepAnalysis,1,,2026-03-08T10:00:00Z,

            """,
        ])
        defer { drop.remove() }
        let (validate, rejects) = try drop.validate(asOf: Self.asOf)
        #expect(validate.status == 3)
        #expect(
            rejects.sorted()
                == [
                    "health/h.csv:3 bad_id:user_id", "health/h.csv:4 bad_id:source_bundle_id",
                    "journal/j.csv:2 bad_id:entry_id", "subjects/goals.csv:2 bad_id:user_id",
                    "subjects/preferences.csv:2 bad_id:user_id", "subjects/relationships.csv:3 bad_id:relationship_id",
                    "subjects/relationships.csv:4 bad_id:client_user_id",
                    "subjects/relationships.csv:5 bad_id:coach_user_id", "subjects/timezones.csv:2 bad_id:user_id",
                    "tasks/info_cards/c.csv:2 bad_id:card_key", "tasks/instances/i.csv:4 bad_id:id",
                    "tasks/instances/i.csv:5 bad_id:id", "tasks/instances/i.csv:6 bad_id:source_key",
                    "tasks/status_events/e.csv:3 bad_id:id", "tasks/status_events/e.csv:4 bad_id:device_id",
                    "tasks/value_entries/v.csv:2 bad_id:client_operation_id",
                    "tasks/workout_logs/w.csv:2 bad_id:assignment_id",
                ].sorted(), "\(rejects)")
        let run = try drop.run(asOf: Self.asOf)
        #expect(run.status == 0, "\(run.stderr)")
        // The 256-byte id is a task: it is in the event snapshot (MISSED), so
        // the rule did not reject what it allows.
        let events = try String(
            decoding: Data(contentsOf: drop.output.appendingPathComponent("debug/adherence_events.csv")), as: UTF8.self)
        #expect(events.contains(longest))
        for (path, bytes) in try drop.publishedText() {
            #expect(!bytes.contains(0x00), "NUL byte in \(path)")
            #expect(!bytes.contains(0x1B), "ESC byte in \(path)")
            #expect(!bytes.contains(0x7F), "DEL byte in \(path)")
        }
    }

    /// Dates and instants outside 1970-01-01 … 2199-12-31 are rejected in
    /// every column (the edges are accepted); an instant is judged as UTC.
    @Test func datesAndInstantsOutside1970To2199AreRejected() throws {
        let drop = try HandMadeDrop([
            "subjects/relationships.csv": """
            relationship_id,client_user_id,status,started_on,ended_on
            r1,u1,ACTIVE,2026-03-06,
            r2,u2,ACTIVE,0000-01-01,
            r3,u3,ACTIVE,2200-01-01,
            r4,u4,ACTIVE,2026-03-06,2199-12-31

            """,
            "subjects/goals.csv": """
            user_id,metric,target,provenance,effective_on
            u1,energy_kcal,2000,CONFIRMED,1970-01-01
            u1,protein_g,90,CONFIRMED,1969-12-31

            """,
            "tasks/instances/i.csv": """
            id,relationship_id,local_date,timezone,task_kind,source_key,status,starts_at
            t1,r1,2026-03-08,UTC,HABIT,k1,PENDING,
            t2,r1,2200-01-01,UTC,HABIT,k2,PENDING,
            t3,r1,2026-03-08,UTC,HABIT,k3,PENDING,1969-12-31T23:59:59Z

            """,
            "tasks/status_events/e.csv": """
            id,daily_task_instance_id,relationship_id,to_status,occurred_at
            e1,t1,r1,COMPLETED,1970-01-01T00:00:00Z
            e2,t1,r1,COMPLETED,1969-12-31T23:59:59Z
            e3,t1,r1,COMPLETED,1970-01-01T00:30:00+01:00
            e4,t1,r1,COMPLETED,2200-01-01T00:00:00Z

            """,
            "journal/j.csv": "entry_id,user_id,cooked_at,revision,energy_kcal\nj1,u1,2200-01-01T00:00:00Z,1,500\n",
            "health/h.csv": """
            user_id,type,value,unit,start,end
            u1,HKQuantityTypeIdentifierStepCount,100,count,1969-07-20T20:17:00Z,
            u1,HKQuantityTypeIdentifierStepCount,100,count,2026-03-08T10:00:00Z,2199-12-31T23:59:59Z

            """,
        ])
        defer { drop.remove() }
        let (validate, rejects) = try drop.validate(asOf: Self.asOf)
        #expect(validate.status == 3)
        #expect(
            rejects.sorted()
                == [
                    "health/h.csv:2 bad_instant:start", "journal/j.csv:2 bad_instant:cooked_at",
                    "subjects/goals.csv:3 bad_date:effective_on", "subjects/relationships.csv:3 bad_date:started_on",
                    "subjects/relationships.csv:4 bad_date:started_on", "tasks/instances/i.csv:3 bad_date:local_date",
                    "tasks/instances/i.csv:4 bad_instant:starts_at",
                    "tasks/status_events/e.csv:3 bad_instant:occurred_at",
                    "tasks/status_events/e.csv:4 bad_instant:occurred_at",
                    "tasks/status_events/e.csv:5 bad_instant:occurred_at",
                ].sorted(), "\(rejects)")
        let run = try drop.run(asOf: Self.asOf)
        #expect(run.status == 0, "\(run.stderr)")
        // r1 (from 03-06) and r4 give 5 day rows each: nothing dense from year 0.
        let days = try String(
            decoding: Data(contentsOf: drop.output.appendingPathComponent("reports/coach_daily_summary.csv")),
            as: UTF8.self)
        #expect(days.split(separator: "\n").count == 1 + 5 + 5)
    }

    /// Numbers beyond ±10¹² (or too large for a Double) are rejected
    /// `out_of_range:<col>` wherever they are read; 10¹² itself is fine.
    /// So two values of 1.79e308 (today, outside the intake window) no
    /// longer sum to `inf`, and a CONFIRMED target of 1e19, which trapped
    /// the intake signal's sentence (`Int(target.rounded())`: 4 days of 500
    /// kcal are far below 60 % of it), is a reject: the run publishes and
    /// no output holds `inf` or `nan`.
    @Test func numbersBeyondTenToTheTwelfthAreRejectedAndNothingOverflows() throws {
        let journal = (3...6).map { "j\($0),u1,2026-03-0\($0)T12:00:00Z,1,,500" }.joined(separator: "\n")
        let drop = try HandMadeDrop([
            "subjects/relationships.csv": "relationship_id,client_user_id,status,started_on\nr1,u1,ACTIVE,2026-03-01\n",
            "subjects/goals.csv": """
            user_id,metric,target,provenance,effective_on
            u1,energy_kcal,1e19,CONFIRMED,2026-01-01
            u1,protein_g,1000000000000,CONFIRMED,2026-01-01
            u1,carbs_g,-1000000000001,CONFIRMED,2026-01-01

            """,
            "tasks/instances/i.csv": """
            id,relationship_id,local_date,timezone,task_kind,source_key,status
            t1,r1,2026-03-08,UTC,HABIT,k1,PENDING

            """,
            "tasks/value_entries/v.csv": """
            id,daily_task_instance_id,relationship_id,value,recorded_at
            v1,t1,r1,1.79e308,2026-03-08T10:00:00Z
            v2,t1,r1,abc,2026-03-08T10:00:00Z

            """,
            "journal/j.csv": """
            entry_id,user_id,cooked_at,revision,portion,energy_kcal
            \(journal)
            j7,u1,2026-03-10T01:00:00Z,1,,1.79e308
            j8,u1,2026-03-10T02:00:00Z,1,,1.79e308
            j9,u1,2026-03-07T14:00:00Z,1,1e13,100
            j10,u1,2026-03-07T15:00:00Z,10000000000000,,100
            j11,u1,2026-03-07T16:00:00Z,99999999999999999999,,100
            j12,u1,2026-03-07T17:00:00Z,1e400,,100

            """,
            "health/h.csv": """
            user_id,type,value,unit,start
            u1,HKQuantityTypeIdentifierDietaryWater,1.79e308,mL,2026-03-08T10:00:00Z
            u1,HKQuantityTypeIdentifierDietaryWater,1e400,mL,2026-03-08T11:00:00Z
            u1,HKQuantityTypeIdentifierDietaryWater,-0x1p3,mL,2026-03-08T12:00:00Z
            u1,HKQuantityTypeIdentifierDietaryWater,250,mL,2026-03-08T13:00:00Z

            """,
        ])
        defer { drop.remove() }
        let (validate, rejects) = try drop.validate(asOf: Self.asOf)
        #expect(validate.status == 3)
        #expect(
            rejects.sorted()
                == [
                    "health/h.csv:2 out_of_range:value", "health/h.csv:3 out_of_range:value",
                    "health/h.csv:4 non_numeric:value", "journal/j.csv:6 out_of_range:energy_kcal",
                    "journal/j.csv:7 out_of_range:energy_kcal", "journal/j.csv:8 out_of_range:portion",
                    "journal/j.csv:9 out_of_range:revision", "journal/j.csv:10 out_of_range:revision",
                    "journal/j.csv:11 non_numeric:revision", "subjects/goals.csv:2 out_of_range:target",
                    "subjects/goals.csv:4 out_of_range:target", "tasks/value_entries/v.csv:2 out_of_range:value",
                    "tasks/value_entries/v.csv:3 non_numeric:value",
                ].sorted(), "\(rejects)")
        let run = try drop.run(asOf: Self.asOf)
        #expect(run.status == 0, "\(run.stderr)")
        let nonFinite = try NSRegularExpression(
            pattern: "(?<![A-Za-z_])[-+]?(inf|nan)(?![A-Za-z_])", options: .caseInsensitive)
        for (path, bytes) in try drop.publishedText() {
            let text = String(decoding: bytes, as: UTF8.self)
            let found = nonFinite.firstMatch(in: text, range: NSRange(text.startIndex..., in: text))
            #expect(found == nil, "non-finite number in \(path)")
        }
        // Without the 1e19 target, u1 has no CONFIRMED energy target: no intake signal.
        let signals = try String(
            decoding: Data(contentsOf: drop.output.appendingPathComponent("reports/risk_signals.csv")), as: UTF8.self)
        #expect(!signals.contains("INTAKE_BELOW_TARGET"))
    }
}
