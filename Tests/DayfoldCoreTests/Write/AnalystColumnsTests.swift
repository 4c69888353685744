import Foundation
import Testing

@testable import DayfoldCore

/// SPEC §10 "Outputs an analyst can use without joining back to the inputs":
/// the relationship's coach, workspace and status as written, the run's
/// as-of, and client_days' day-by-day dietary values, on a hand-made drop
/// whose every expected cell is worked out below.
@Suite struct AnalystColumnsTests {
    static let asOf = "2026-03-10T12:00:00Z"

    /// r-full has a coach, a workspace and PAUSED; r-empty has none of them
    /// (so NULL in outputs, ACTIVE for the rules) and two MISSED days.
    /// u-health asks for APPLE_HEALTH; u-bare has no preference (LOCAL_JOURNAL).
    ///
    /// u-health, day by day (requested APPLE_HEALTH):
    /// - 03-02: journal energy 500, protein 20; no health → 500 / 20 from the journal, LOCAL_JOURNAL.
    /// - 03-03: health energy 800 only; journal energy 400, protein 30 → energy 800 (health),
    ///   protein 30 (journal: health has none), APPLE_HEALTH.
    /// - 03-04: nothing; 03-05: steps only → every dietary value NULL, source NULL.
    /// u-bare (LOCAL_JOURNAL): 03-06 journal 300 and health 900 → 300, LOCAL_JOURNAL.
    static let files: [String: String] = [
        "subjects/relationships.csv": """
        relationship_id,client_user_id,coach_user_id,workspace_id,status,started_on,ended_on
        r-full,u-health,c-1,w-1,PAUSED,2026-03-01,
        r-empty,u-bare,,,,2026-03-01,

        """,
        "subjects/timezones.csv": """
        user_id,timezone,effective_from
        u-health,UTC,2026-01-01T00:00:00Z
        u-bare,UTC,2026-01-01T00:00:00Z

        """,
        "subjects/preferences.csv": "user_id,progress_source\nu-health,APPLE_HEALTH\n",
        "tasks/instances/i.csv": """
        id,relationship_id,local_date,timezone,task_kind,source_key,status
        t-1,r-empty,2026-03-06,UTC,HABIT,k-1,PENDING
        t-2,r-empty,2026-03-07,UTC,HABIT,k-2,PENDING

        """,
        "journal/j.csv": """
        entry_id,user_id,cooked_at,revision,portion,energy_kcal,protein_g,carbs_g,fat_g,deleted
        e-1,u-health,2026-03-02T08:00:00Z,1,1,500,20,,,false
        e-2,u-health,2026-03-03T08:00:00Z,1,1,400,30,,,false
        e-3,u-bare,2026-03-06T08:00:00Z,1,1,300,,,,false

        """,
        "health/h.csv": """
        user_id,type,value,unit,start,end,source_name,source_bundle_id,device
        u-health,HKQuantityTypeIdentifierDietaryEnergyConsumed,800,kcal,2026-03-03 09:00:00 +0000,2026-03-03 09:00:00 +0000,MyFitness,com.example.fit,
        u-health,HKQuantityTypeIdentifierStepCount,4000,count,2026-03-05 09:00:00 +0000,2026-03-05 10:00:00 +0000,Phone,com.apple.health,
        u-bare,HKQuantityTypeIdentifierDietaryEnergyConsumed,900,kcal,2026-03-06 09:00:00 +0000,2026-03-06 09:00:00 +0000,MyFitness,com.example.fit,

        """,
    ]

    /// A CSV read into rows keyed by column name.
    struct Table {
        var header: [String]
        var rows: [[String: String?]]

        init(_ url: URL) throws {
            let csv = try ReportComparison.readCSV(url)
            header = csv.header
            rows = csv.rows.map { Dictionary(uniqueKeysWithValues: zip(csv.header, $0)) }
        }

        func rows(where column: String, is value: String) -> [[String: String?]] {
            rows.filter { $0[column] == .some(value) }
        }
    }

    /// Runs the drop (whole, or split into partitions) with debug tables; returns the output folder.
    static func run(in directory: URL, extraArguments: [String] = []) throws -> URL {
        let drop = directory.appendingPathComponent("drop")
        for (path, text) in files {
            let url = drop.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        let output = directory.appendingPathComponent("out")
        let result = try DayfoldProcess.run(
            ["run", "--input", drop.path, "--output", output.path, "--as-of", asOf, "--debug-tables"] + extraArguments)
        #expect(result.status == 0, "\(result.stderr)")
        return output
    }

    @Test func dietaryValuesComeFromTheRequestedSourceNutrientByNutrient() throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let days = try Table(try Self.run(in: directory).appendingPathComponent("debug/client_days.csv"))
        #expect(
            Array(days.header.suffix(6)) == ["as_of", "energy_kcal", "protein_g", "carbs_g", "fat_g", "dietary_source"])
        func day(_ user: String, _ date: String) throws -> [String: String?] {
            try #require(days.rows.first { $0["user_id"] == .some(user) && $0["local_date"] == .some(date) })
        }
        func cells(_ row: [String: String?]) -> [String?] {
            ["energy_kcal", "protein_g", "carbs_g", "fat_g", "dietary_source"].map { row[$0] ?? nil }
        }
        // Only journal energy on a day, though APPLE_HEALTH is requested.
        #expect(cells(try day("u-health", "2026-03-02")) == ["500", "20", nil, nil, "LOCAL_JOURNAL"])
        // Health energy, but protein only in the journal: each nutrient on its own.
        #expect(cells(try day("u-health", "2026-03-03")) == ["800", "30", nil, nil, "APPLE_HEALTH"])
        #expect(try day("u-health", "2026-03-03")["journal_energy_kcal"] == .some("400"))
        // Neither source: NULL values and a NULL source, never 0.
        #expect(cells(try day("u-health", "2026-03-04")) == [nil, nil, nil, nil, nil])
        let stepsOnly = try day("u-health", "2026-03-05")
        #expect(cells(stepsOnly) == [nil, nil, nil, nil, nil])
        #expect(stepsOnly["steps"] == .some("4000"))
        // No preference: the journal first.
        #expect(cells(try day("u-bare", "2026-03-06")) == ["300", nil, nil, nil, "LOCAL_JOURNAL"])
    }

    @Test func relationshipColumnsAreAsWrittenAndEmptyOnesAreNull() throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = try Self.run(in: directory)
        let detail = ["coach_user_id", "workspace_id", "relationship_status"]
        for (table, hasAsOf) in [
            ("reports/coach_daily_summary.csv", true), ("reports/streaks.csv", true),
            ("reports/risk_signals.csv", true), ("debug/adherence_events.csv", false),
        ] {
            let rows = try Table(out.appendingPathComponent(table))
            #expect(Array(rows.header.suffix(hasAsOf ? 4 : 3)) == detail + (hasAsOf ? ["as_of"] : []), "\(table)")
            for row in rows.rows(where: "relationship_id", is: "r-full") {
                #expect(detail.map { row[$0] ?? nil } == ["c-1", "w-1", "PAUSED"], "\(table)")
            }
            let empty = rows.rows(where: "relationship_id", is: "r-empty")
            #expect(!empty.isEmpty, "\(table) has no r-empty row")
            for row in empty { #expect(detail.map { row[$0] ?? nil } == [nil, nil, nil], "\(table)") }
        }
        let days = try Table(out.appendingPathComponent("reports/coach_daily_summary.csv"))
        #expect(days.rows(where: "relationship_id", is: "r-full").count == 10)
        #expect(days.rows(where: "relationship_id", is: "r-empty").count == 10)
    }

    /// An empty status is ACTIVE for the rules: r-empty's two missed days
    /// (03-06, 03-07, both closed by 03-08) give MISSED_DAYS MEDIUM, which an
    /// ENDED relationship would not get.
    @Test func anEmptyStatusStillGetsItsSignals() throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let signals = try Table(try Self.run(in: directory).appendingPathComponent("reports/risk_signals.csv"))
        let missed = signals.rows(where: "relationship_id", is: "r-empty").filter {
            $0["signal"] == .some("MISSED_DAYS")
        }
        let row = try #require(missed.first)
        #expect(row["severity"] == .some("MEDIUM"))
        #expect(row["window_from"] == .some("2026-03-06"))
        #expect(row["window_to"] == .some("2026-03-07"))
        #expect(row["as_of_date"] == .some("2026-03-10"))
        #expect(row["relationship_status"] == .some(nil))
    }

    /// Every table that carries `as_of` holds the run's `--as-of` on every
    /// row, in the CSV and as a TIMESTAMP(UTC, µs) in the snapshot; the
    /// adherence events do not carry it. The same under a memory budget
    /// that splits the drop.
    @Test(arguments: [[], ["--max-memory", "1K"]])
    func asOfIsTheRunsAsOfInEveryTable(extraArguments: [String]) throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = try Self.run(in: directory, extraArguments: extraArguments)
        let want = try #require(parseAsOf(Self.asOf)).instant
        for (snapshot, csv) in [
            ("relationship_days", "reports/coach_daily_summary.csv"), ("client_days", "debug/client_days.csv"),
            ("streaks", "reports/streaks.csv"), ("risk_signals", "reports/risk_signals.csv"),
            ("progress_ranges", "reports/progress_ranges.csv"),
        ] {
            let table = try Table(out.appendingPathComponent(csv))
            #expect(table.header.contains("as_of_date") == ["streaks", "risk_signals"].contains(snapshot))
            #expect(!table.rows.isEmpty, "\(csv) is empty")
            for row in table.rows {
                #expect(
                    parseAsOf((row["as_of"] ?? nil) ?? "")?.instant == want, "\(csv): \(row["as_of"] ?? nil ?? "NULL")")
            }
            let path = out.appendingPathComponent("snapshots/\(snapshot).parquet").path
            let info = try ParquetFileInfo.read(path: path)
            let column = try #require(info.fields.firstIndex { $0.name == "as_of" })
            #expect(info.fields[column].type == .timestampMicros)
            #expect(info.fields.last?.name == (snapshot == "client_days" ? "dietary_source" : "as_of"))
            let values = try info.readColumns(path: path, limit: Int.max)[column]
            #expect(values == .int64([Int64?](repeating: want.micros, count: table.rows.count)), "\(snapshot)")
        }
        let events = try Table(out.appendingPathComponent("debug/adherence_events.csv"))
        #expect(!events.header.contains("as_of"))
        #expect(events.rows.count == 2)
    }
}
