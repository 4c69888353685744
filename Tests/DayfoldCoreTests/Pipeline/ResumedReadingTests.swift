import Foundation
import Testing

@testable import DayfoldCore

/// A run whose drop is the kept reading's files and some new ones resumes
/// the kept reading: only the task kinds' new files are read, on top of the
/// kept rows and tables (`ReadingTables`), the other kinds whole. The
/// outputs are byte for byte a full run's; where a new file would change a
/// kept decision the drop is read whole and the manifest says why.
@Suite struct ResumedReadingTests {
    typealias Setting = KeptReadingTests.Setting
    static let firstNight = "2026-06-02T18:00:00Z"
    static let secondNight = "2026-06-03T18:00:00Z"

    /// SampleData's last `count` instance rows of its first file, each as
    /// its fields (quoted fields kept as written).
    static func lastInstances(_ setting: Setting, count: Int) throws -> (header: String, rows: [[String]]) {
        let text = try String(
            contentsOf: setting.drop.appendingPathComponent("tasks/instances/instances-000.csv"), encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
        return (lines[0], lines.suffix(count).map(fields))
    }

    /// A CSV line's fields as written (no field of these rows holds a line break).
    static func fields(_ line: String) -> [String] {
        var fields: [String] = []
        var current = ""
        var quoted = false
        for character in line {
            if character == "\"" { quoted.toggle() }
            if character == "," && !quoted {
                fields.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        fields.append(current)
        return fields
    }

    /// A night's new files: instances copied from the last rows of SampleData
    /// with new ids on `date` (their keys change with the date), an event
    /// and a value entry naming each, an event naming a task nobody knows
    /// (rejected), and a new card. Returns the new task ids.
    @discardableResult
    static func addNight(_ setting: Setting, date: String, suffix: String, seed: Int, health: Bool = true) throws
        -> [String]
    {
        let (header, rows) = try lastInstances(setting, count: 6)
        func id(_ n: Int) -> String { String(format: "00000000-0000-4000-8000-%012d", seed * 1000 + n) }
        var instances = [header]
        var events = [
            "id,daily_task_instance_id,relationship_id,from_status,to_status,reason,note,actor_user_id,"
                + "device_id,client_operation_id,metadata,occurred_at"
        ]
        var values = [
            "id,daily_task_instance_id,relationship_id,value,recorded_at,status,device_id,client_operation_id"
        ]
        var taskIDs: [String] = []
        for (n, row) in rows.enumerated() {
            var row = row
            let task = id(n)
            taskIDs.append(task)
            row[0] = task
            row[3] = date
            row[12] = "PENDING"
            row[15] = ""
            row[19] = ""
            row[20] = ""
            row[21] = ""
            instances.append(row.joined(separator: ","))
            let relationship = row[2]
            events.append(
                "\(id(100 + n)),\(task),\(relationship),PENDING,COMPLETED,,,,night-device,\(id(200 + n)),,\(date)T12:00:00Z"
            )
            values.append(
                "\(id(300 + n)),\(task),\(relationship),3,\(date)T12:30:00Z,ACCEPTED,night-device,\(id(400 + n))")
        }
        // A row naming a task no file holds: rejected (unknown_task).
        events.append(
            "\(id(500)),\(id(900)),\(rows[0][2]),PENDING,COMPLETED,,,,night-device,\(id(501)),,\(date)T13:00:00Z")
        let card =
            "\(id(600)),\(rows[0][1]),\(rows[0][2]),\(date),\(rows[0][4]),night_card:\(seed),0,\"{\"\"title\"\":\"\"Night\"\"}\""
        // Push: an intent for the first installation's user, delivered to
        // it, with a receipt; a receipt for a kept delivery; one for a
        // delivery nobody knows (rejected).
        let installation = fields(
            try String(
                contentsOf: setting.drop.appendingPathComponent("push/installations/installations-000.csv"),
                encoding: .utf8
            ).split(separator: "\n")[1].description)
        let keptDelivery = fields(
            try String(
                contentsOf: setting.drop.appendingPathComponent("push/deliveries/deliveries-000.csv"), encoding: .utf8
            ).split(separator: "\n").last?.description ?? "")
        let intents = [
            "id,recipient_user_id,relationship_id,source_context,source_record_id,category,priority,title_key,"
                + "idempotency_key,scheduled_for,status,created_at",
            "\(id(700)),\(installation[1]),,RISK,\(id(701)),RISK_FLAG,NORMAL,push.risk_flag.title,\(id(702)),"
                + "\(date)T15:00:00Z,SENT,\(date)T13:00:00Z",
        ]
        let deliveries = [
            "id,intent_id,installation_id,provider,status,attempt_count,last_error_code,last_error_detail,sent_at,"
                + "failed_at",
            "\(id(710)),\(id(700)),\(installation[0]),EXPO,DELIVERED,1,,,\(date)T15:00:00Z,",
        ]
        let receipts = [
            "id,delivery_id,provider,receipt_status,provider_error_code,raw_payload,received_at",
            "\(id(720)),\(id(710)),EXPO,OK,,{},\(date)T15:30:00Z",
            "\(id(721)),\(keptDelivery[0]),EXPO,OK,,{},\(date)T16:30:00Z",
            "\(id(722)),\(id(999)),EXPO,OK,,{},\(date)T16:30:00Z",
        ]
        // Journal: a new entry, and a second revision of it. Health: a new
        // sample, and a kept one again (an exact duplicate).
        func lines(_ path: String) throws -> [String] {
            try String(contentsOf: setting.drop.appendingPathComponent(path), encoding: .utf8)
                .split(separator: "\n").map(String.init)
        }
        let journalKept = try lines("journal/journal-000.csv")
        let journalUser = fields(journalKept[1])[1]
        // Kept entries revised: the first to a higher revision cooked on the
        // night's date (it wins and moves across midnight), the second to
        // revision 0 (it loses: a duplicate).
        var moved = fields(journalKept[1])
        moved[2] = "\(date)T07:00:00Z"
        moved[3] = "\(seed + 5)"
        var lower = fields(journalKept[2])
        lower[3] = "0"
        lower[5] = "999"
        let journal = [
            journalKept[0],
            "\(id(800)),\(journalUser),\(date)T08:00:00Z,1,1.0,300,20,30,10,false,,Night oats",
            "\(id(800)),\(journalUser),\(date)T08:00:00Z,2,1.5,300,20,30,10,false,,Night oats",
            moved.joined(separator: ","), lower.joined(separator: ","),
        ]
        let healthKept = try lines("health/health-000.csv")
        let healthUser = fields(healthKept[1])[0]
        let healthRows = [
            healthKept[0], healthKept[1],
            "\(healthUser),HKQuantityTypeIdentifierStepCount,4321,count,\(date) 09:00:00 +0000,"
                + "\(date) 09:30:00 +0000,Night iPhone,com.apple.health.night,\"iPhone15,2\"",
        ]
        var files = [
            "journal/journal-9\(suffix).csv": journal,
            "push/intents/intents-9\(suffix).csv": intents,
            "push/deliveries/deliveries-9\(suffix).csv": deliveries,
            "push/receipts/receipts-9\(suffix).csv": receipts,
            "tasks/instances/instances-9\(suffix).csv": instances,
            "tasks/status_events/events-9\(suffix).csv": events,
            "tasks/value_entries/values-9\(suffix).csv": values,
            "tasks/info_cards/cards-9\(suffix).csv": [
                "id,workspace_id,relationship_id,local_date,timezone,card_key,priority,snapshot", card,
            ],
        ]
        if health { files["health/health-9\(suffix).csv"] = healthRows }
        for (path, lines) in files {
            try (lines.joined(separator: "\n") + "\n").write(
                to: setting.drop.appendingPathComponent(path), atomically: true, encoding: .utf8)
        }
        return taskIDs
    }

    static func reason(_ manifest: [String: Any]) -> String { manifest["reason"] as? String ?? "" }

    /// SampleData without its Apple Health export (a new health CSV file
    /// is read before every export, `aNewHealthFileBeforeAKeptExportReadsTheDropWhole`).
    static func withoutExports(_ setting: Setting) throws {
        let health = setting.drop.appendingPathComponent("health")
        for entry in try FileManager.default.contentsOfDirectory(atPath: health.path) where !entry.hasSuffix(".csv") {
            try FileManager.default.removeItem(at: health.appendingPathComponent(entry))
        }
    }

    @Test func nightsOfNewFilesResumeTheKeptReading() throws {
        let setting = try Setting()
        defer { try? FileManager.default.removeItem(at: setting.root) }
        try Self.withoutExports(setting)
        try setting.primed(asOf: KeptReadingTests.afterLastRow)
        try Self.addNight(setting, date: "2026-06-02", suffix: "01-night", seed: 1)
        let first = try setting.run(asOf: Self.firstNight)
        #expect(first.different.isEmpty, "\(first.different)")
        #expect(
            Self.reason(first.manifest).contains("the 9 new input files were read on top of it"),
            "\(Self.reason(first.manifest))")
        #expect(first.manifest["mode"] as? String == "incremental")
        // The resumed run kept its own reading: the next night resumes it.
        try Self.addNight(setting, date: "2026-06-03", suffix: "02-night", seed: 2)
        let second = try setting.run(asOf: Self.secondNight)
        #expect(second.different.isEmpty, "\(second.different)")
        #expect(Self.reason(second.manifest).contains("read on top of it"), "\(Self.reason(second.manifest))")
        #expect(setting.readings.count == 1, "\(setting.readings)")
    }

    /// A new file that re-exports a kept task, a new task that a kept row
    /// was rejected for not knowing, and a new workout-log file each change
    /// a kept decision: the drop is read whole.
    @Test func aNightThatChangesAKeptDecisionReadsTheDropWhole() throws {
        let setting = try Setting()
        defer { try? FileManager.default.removeItem(at: setting.root) }
        try setting.primed(asOf: KeptReadingTests.afterLastRow)
        // A kept event names task …900, which no file holds yet.
        try Self.addNight(setting, date: "2026-06-02", suffix: "01-night", seed: 1, health: false)
        let first = try setting.run(asOf: Self.firstNight)
        #expect(Self.reason(first.manifest).contains("read on top of it"), "\(Self.reason(first.manifest))")
        let (header, rows) = try Self.lastInstances(setting, count: 1)
        var row = rows[0]
        row[0] = String(format: "00000000-0000-4000-8000-%012d", 1900)
        row[3] = "2026-06-03"
        try Self.expectReadWhole(
            setting, adding: "tasks/instances/instances-902-night.csv", [header, row.joined(separator: ",")],
            because: "makes a row the kept reading rejected (unknown_task) valid")
        // Re-exporting a kept task (the last row of the first file again).
        try Self.primeAgain(setting)
        try Self.expectReadWhole(
            setting, adding: "tasks/instances/instances-903-night.csv", [header, rows[0].joined(separator: ",")],
            because: "re-exports a task the kept reading holds")
        // Re-exporting a kept intent: push is read last, after the other
        // kinds' rows would have been handed to the facts.
        try Self.primeAgain(setting)
        let intents = try String(
            contentsOf: setting.drop.appendingPathComponent("push/intents/intents-000.csv"), encoding: .utf8
        ).split(separator: "\n").map(String.init)
        try Self.expectReadWhole(
            setting, adding: "push/intents/intents-905-night.csv", [intents[0], intents[intents.count - 1]],
            because: "a new intent file holds an intent id")
        // A new workout-log file (its header alone).
        try Self.primeAgain(setting)
        let logs = try String(
            contentsOf: setting.drop.appendingPathComponent("tasks/workout_logs/workout_logs-000.csv"), encoding: .utf8)
        try Self.expectReadWhole(
            setting, adding: "tasks/workout_logs/workout_logs-904-night.csv", [String(logs.prefix { $0 != "\n" })],
            because: "a workout-log file is new")
    }

    /// Adds a night file of `lines` at `path` and runs as of the second
    /// night: the outputs are a full run's, and the manifest says the drop
    /// was read whole `because` of it.
    static func expectReadWhole(_ setting: Setting, adding path: String, _ lines: [String], because: String) throws {
        try (lines.joined(separator: "\n") + "\n").write(
            to: setting.drop.appendingPathComponent(path), atomically: true, encoding: .utf8)
        let run = try setting.run(asOf: secondNight)
        #expect(run.different.isEmpty, "\(run.different)")
        #expect(reason(run.manifest).contains(because), "\(reason(run.manifest))")
    }

    /// Runs twice on the drop as it is, so that the state keeps its reading.
    static func primeAgain(_ setting: Setting) throws {
        try setting.primed(asOf: secondNight)
    }

    /// A whole reading reads health CSV files before the Apple Health
    /// exports: a new CSV file with a kept export is read with the drop,
    /// and the run keeps its reading for the next night all the same.
    @Test func aNewHealthFileBeforeAKeptExportReadsTheDropWhole() throws {
        let setting = try Setting()
        defer { try? FileManager.default.removeItem(at: setting.root) }
        try setting.primed(asOf: KeptReadingTests.afterLastRow)
        try Self.addNight(setting, date: "2026-06-02", suffix: "01-night", seed: 1)
        let first = try setting.run(asOf: Self.firstNight)
        #expect(first.different.isEmpty, "\(first.different)")
        #expect(
            Self.reason(first.manifest).contains("a new health CSV file would be read before the kept Apple Health"),
            "\(Self.reason(first.manifest))")
        try Self.addNight(setting, date: "2026-06-03", suffix: "02-night", seed: 2, health: false)
        let second = try setting.run(asOf: Self.secondNight)
        #expect(second.different.isEmpty, "\(second.different)")
        #expect(Self.reason(second.manifest).contains("read on top of it"), "\(Self.reason(second.manifest))")
    }

    /// The kept reading's tables file, named in the state (one at a time).
    static func tablesFile(_ setting: Setting) throws -> URL {
        let names = try FileManager.default.contentsOfDirectory(atPath: setting.state.path).filter {
            $0.hasPrefix("tables-")
        }
        try #require(names.count == 1, "\(names)")
        return setting.state.appendingPathComponent(names[0])
    }

    /// The tables are a file of their own beside the rows: a damaged one,
    /// or one kept with other rows, is not resumed (the drop is read
    /// whole, and the run keeps a reading the next night resumes).
    @Test func aDamagedOrForeignTablesFileReadsTheDropWhole() throws {
        let setting = try Setting()
        defer { try? FileManager.default.removeItem(at: setting.root) }
        try Self.withoutExports(setting)
        try setting.primed(asOf: KeptReadingTests.afterLastRow)
        let foreign = try Data(contentsOf: try Self.tablesFile(setting))
        try Self.addNight(setting, date: "2026-06-02", suffix: "01-night", seed: 1)
        let first = try setting.run(asOf: Self.firstNight)
        #expect(Self.reason(first.manifest).contains("read on top of it"), "\(Self.reason(first.manifest))")
        let damagedPath = try Self.tablesFile(setting)
        var bytes = try Data(contentsOf: damagedPath)
        bytes[bytes.count / 2] ^= 0x01
        try bytes.write(to: damagedPath)
        try Self.addNight(setting, date: "2026-06-03", suffix: "02-night", seed: 2)
        let damaged = try setting.run(asOf: Self.secondNight)
        #expect(damaged.different.isEmpty, "\(damaged.different)")
        #expect(
            Self.reason(damaged.manifest).contains("the drop is read whole (the kept reading: ")
                && Self.reason(damaged.manifest).contains("fails its check"), "\(Self.reason(damaged.manifest))")
        // The next night resumes the reading that run kept; its tables are
        // then swapped for the first night's (whole, but not its rows').
        try Self.addNight(setting, date: "2026-06-04", suffix: "03-night", seed: 3)
        let resumed = try setting.run(asOf: "2026-06-04T18:00:00Z")
        #expect(resumed.different.isEmpty, "\(resumed.different)")
        #expect(Self.reason(resumed.manifest).contains("read on top of it"), "\(Self.reason(resumed.manifest))")
        try foreign.write(to: try Self.tablesFile(setting))
        try Self.addNight(setting, date: "2026-06-05", suffix: "04-night", seed: 4)
        let swapped = try setting.run(asOf: "2026-06-05T18:00:00Z")
        #expect(swapped.different.isEmpty, "\(swapped.different)")
        #expect(
            Self.reason(swapped.manifest).contains("its tables are not the ones its rows were kept with"),
            "\(Self.reason(swapped.manifest))")
        #expect(setting.readings.count == 1, "\(setting.readings)")
        _ = try Self.tablesFile(setting)
    }
}
