import Foundation
import Testing

@testable import DayfoldCore

/// `--as-of-series FROM..TO` (SPEC §12): each step's history tables are,
/// byte for byte, what a plain run as of that instant writes as its
/// snapshots, and the run's own outputs are a plain run's as of TO.
@Suite struct AsOfSeriesTests {
    static let pipeline = TestPaths.repositoryRoot.appendingPathComponent("Pipelines/sample.json").path
    static let input = TestPaths.repositoryRoot.appendingPathComponent("SampleData/demo").path

    @Test func stepsAre24HoursApartWithBothEndsIncluded() throws {
        let series = try AsOfSeries.parse("2026-03-28T18:00:00Z..2026-03-30T18:00:00+00:00")
        #expect(
            series.steps.map(\.instant.description) == [
                "2026-03-28T18:00:00Z", "2026-03-29T18:00:00Z", "2026-03-30T18:00:00Z",
            ])
        // The folder is the UTC date of the step.
        #expect(
            AsOfSeries.path(table: "streaks", step: series.steps[0])
                == "history/streaks/as_of_date=2026-03-28/part-0.parquet")
        // One step when both ends are the same instant.
        #expect(try AsOfSeries.parse("2026-03-28T18:00:00Z..2026-03-28T18:00:00Z").steps.count == 1)
    }

    @Test(arguments: [
        "2026-03-28T18:00:00Z", "2026-03-28T18:00:00Z..", "yesterday..today",
        "2026-03-30T18:00:00Z..2026-03-28T18:00:00Z",  // TO before FROM
        "2026-03-28T18:00:00Z..2026-03-29T06:00:00Z",  // not a whole number of days
        "2016-03-01T18:00:00Z..2026-03-31T18:00:00Z",  // 3,683 steps: more than the 3,660 allowed
        "2000-01-01T00:00:00Z..2026-03-28T00:00:00Z",  // far more than ten years
    ])
    func aSeriesThatIsNotOneIsRefused(text: String) throws {
        #expect(throws: DayfoldError.self) { try AsOfSeries.parse(text) }
    }

    /// Ten years of nights (2016-03-28 … 2026-03-28: 3,652 days, two of them
    /// leap days) are 3,653 steps, within the 3,660 allowed.
    @Test func tenYearsOfNightsAreAllowed() throws {
        #expect(try AsOfSeries.parse("2016-03-28T18:00:00Z..2026-03-28T18:00:00Z").steps.count == 3_653)
    }

    /// Three nights across Berlin's change to summer time (2026-03-29).
    @Test func everyStepEqualsAPlainRunAsOfItsInstant() throws {
        let root = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let series = root.appendingPathComponent("series")
        let run = try DayfoldProcess.run([
            "run", Self.pipeline, "--input", Self.input, "--output", series.path, "--as-of-series",
            "2026-03-28T18:00:00Z..2026-03-30T18:00:00Z",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let manifest = try String(contentsOf: series.appendingPathComponent("manifest.json"), encoding: .utf8)
        for day in ["28", "29", "30"] {
            let plain = root.appendingPathComponent("plain-\(day)")
            let result = try DayfoldProcess.run([
                "run", Self.pipeline, "--input", Self.input, "--output", plain.path, "--as-of",
                "2026-03-\(day)T18:00:00Z",
            ])
            #expect(result.status == 0, "\(result.stderr)")
            for table in AsOfSeries.tables {
                let part = "history/\(table)/as_of_date=2026-03-\(day)/part-0.parquet"
                let got = try Data(contentsOf: series.appendingPathComponent(part))
                let want = try Data(contentsOf: plain.appendingPathComponent("snapshots/\(table).parquet"))
                #expect(got == want, "\(part) differs from a plain run's snapshot")
                #expect(manifest.contains("\"\(part)\""), "\(part) is not in the manifest")
            }
        }
        // The run's own outputs are the plain run's as of TO.
        let last = root.appendingPathComponent("plain-30")
        for file in ["reports/streaks.csv", "reports/coach_daily_summary.csv", "snapshots/adherence_events.parquet"] {
            #expect(
                try Data(contentsOf: series.appendingPathComponent(file))
                    == Data(contentsOf: last.appendingPathComponent(file)), "\(file)")
        }
    }

    /// The series' steps come from the run's own reading (one pass over the
    /// inputs), push/ included, and a step's drop carries no push row (the
    /// history tables take nothing from them) but every other row the run's has.
    @Test func aStepsDropIsTheRunsReadingWithoutPush() throws {
        let config = try PipelineConfig.load(path: Self.pipeline)
        let asOf = try #require(parseAsOf("2026-03-29T18:00:00Z"))
        let whole = try PipelineRunner.ingest(
            input: Self.input, config: config, asOf: asOf, hashInputs: false, keepsAsOfCandidates: true)
        let step = AsOfSteps(whole, from: Instant(micros: asOf.instant.micros - 86_400_000_000))
            .drop(asOf: asOf.instant)
        #expect(whole.push != nil)
        #expect(step.push == nil)
        #expect(step.tasks.count == whole.tasks.count && step.events.count == whole.events.count)
        #expect(step.journal.count == whole.journal.count && step.healthDays.count == whole.healthDays.count)
    }

    /// A step's zone fallbacks are not the run's: a user with no zone of
    /// their own whose one journal entry a later revision deletes is looked
    /// up (and falls back to UTC) at the first step only, and the series
    /// run's manifest lists the warnings of a plain run as of its last step.
    @Test func aStepsZoneFallbacksStayOutOfTheRunsManifest() throws {
        let drop = try HandMadeDrop([
            "subjects/relationships.csv": """
            relationship_id,client_user_id,coach_user_id,workspace_id,status,started_on,ended_on
            r1,u1,c1,w1,ACTIVE,2026-03-07,

            """,
            "subjects/timezones.csv": "user_id,timezone,effective_from\nu1,Europe/Berlin,2020-01-01T00:00:00Z\n",
            "journal/journal-000.csv": """
            entry_id,user_id,cooked_at,revision,portion,energy_kcal,protein_g,carbs_g,fat_g,deleted
            j1,u2,2026-03-08T08:00:00Z,1,,500,,,,
            j1,u2,2026-03-09T23:30:00Z,2,,500,,,,true

            """,
        ])
        defer { drop.remove() }
        func warnings(_ arguments: [String], into name: String) throws -> [String] {
            let output = drop.root.appendingPathComponent(name)
            let run = try DayfoldProcess.run(["run", "--input", drop.drop.path, "--output", output.path] + arguments)
            #expect(run.status == 0, "\(run.stderr)")
            let data = try Data(contentsOf: output.appendingPathComponent("manifest.json"))
            let manifest = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            return (manifest["warnings"] as? [String] ?? []).filter { $0.contains("timezone fallback") }
        }
        let first = try warnings(["--as-of", "2026-03-08T12:00:00Z"], into: "first")
        let last = try warnings(["--as-of", "2026-03-10T12:00:00Z"], into: "last")
        #expect(!first.isEmpty, "the first step falls back")
        #expect(first != last, "the case needs a fallback the last step does not use")
        let series = try warnings(["--as-of-series", "2026-03-08T12:00:00Z..2026-03-10T12:00:00Z"], into: "series")
        #expect(series == last)
    }

    /// A step's risk rules read only the check-ins and skips they need
    /// (`SignalTasks`), so the rules' own reading is checked step by step
    /// against plain runs, on days worked out by hand (London, UTC in March;
    /// a check-in's deadline is the start of its date + 2). Check-ins:
    /// k1 03-04 done, k2 03-05 missed, k3a and k3b on 03-06 (k3b done, k3a
    /// missed), k4 03-07 and k5 03-08 missed, k6 03-09 done on 03-11 after
    /// its deadline, k8 03-12 done ahead, on 03-10. Newest first, on 03-06
    /// the greater id first, the walk stops at k3b: as of 03-10 k6 is open
    /// and passed over (k4, k5: 2 missed), as of 03-11 it is missed (3);
    /// k8, done but after today, is not walked before 03-12, and from then
    /// on ends the walk at once.
    /// Skips for pain: h0 03-05 (INJURY) leaves the 7-day window at 03-12,
    /// h1 03-10 (PAIN) stays.
    @Test func aStepsSignalsReadTheCheckInsAndSkipsAPlainRunReads() throws {
        let drop = try HandMadeDrop([
            "subjects/relationships.csv": """
            relationship_id,client_user_id,coach_user_id,workspace_id,status,started_on,ended_on
            r1,u1,c1,w1,ACTIVE,2026-03-01,

            """,
            "subjects/timezones.csv": "user_id,timezone,effective_from\nu1,Europe/London,2020-01-01T00:00:00Z\n",
            "tasks/instances/instances-000.csv": """
            id,relationship_id,local_date,timezone,task_kind,source_key,status,action_schema
            k1,r1,2026-03-04,Europe/London,CHECK_IN,check:k1,PENDING,
            k2,r1,2026-03-05,Europe/London,CHECK_IN,check:k2,PENDING,
            k3b,r1,2026-03-06,Europe/London,CHECK_IN,check:k3b,PENDING,
            k3a,r1,2026-03-06,Europe/London,CHECK_IN,check:k3a,PENDING,
            k4,r1,2026-03-07,Europe/London,CHECK_IN,check:k4,PENDING,
            k5,r1,2026-03-08,Europe/London,CHECK_IN,check:k5,PENDING,
            k6,r1,2026-03-09,Europe/London,CHECK_IN,check:k6,PENDING,
            k8,r1,2026-03-12,Europe/London,CHECK_IN,check:k8,PENDING,
            h0,r1,2026-03-05,Europe/London,HABIT,habit:h0,PENDING,
            h1,r1,2026-03-10,Europe/London,HABIT,habit:h1,PENDING,

            """,
            "tasks/status_events/events-000.csv": """
            id,daily_task_instance_id,relationship_id,to_status,occurred_at,reason,device_id,client_operation_id
            e1,k1,r1,COMPLETED,2026-03-04T10:00:00Z,,d1,op1
            e3,k3b,r1,COMPLETED,2026-03-06T10:00:00Z,,d1,op3
            e6,k6,r1,COMPLETED,2026-03-11T15:00:00Z,,d1,op6
            e8,k8,r1,COMPLETED,2026-03-10T08:00:00Z,,d1,op8
            s0,h0,r1,SKIPPED,2026-03-05T09:00:00Z,INJURY,d1,op10
            s1,h1,r1,SKIPPED,2026-03-10T09:00:00Z,PAIN,d1,op11

            """,
        ])
        defer { drop.remove() }
        let series = drop.root.appendingPathComponent("series")
        let run = try DayfoldProcess.run([
            "run", "--input", drop.drop.path, "--output", series.path, "--as-of-series",
            "2026-03-10T12:00:00Z..2026-03-14T12:00:00Z",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        // Each signal's columns up to its evidence: the check-ins a walk
        // counted, the pain skips in the window.
        let missed2 = #"MISSED_CHECK_INS,HIGH,2026-03-07,2026-03-08,"{""count"":2,""task_ids"":[""k4"",""k5""]}""#
        let missed3 =
            #"MISSED_CHECK_INS,HIGH,2026-03-07,2026-03-09,"{""count"":3,""task_ids"":[""k4"",""k5"",""k6""]}""#
        let pain2 =
            #"PAIN_REPORTED,HIGH,2026-03-05,2026-03-10,"{""count"":2,""reasons"":[""INJURY"",""PAIN""],"#
            + #"""task_ids"":[""h0"",""h1""]}""#
        let pain1 =
            #"PAIN_REPORTED,HIGH,2026-03-10,2026-03-10,"{""count"":1,""reasons"":[""PAIN""],""task_ids"":[""h1""]}""#
        let expected = ["10": [missed2, pain2], "11": [missed3, pain2], "12": [pain1], "13": [pain1], "14": [pain1]]
        for (day, signals) in expected {
            let plain = drop.root.appendingPathComponent("plain-\(day)")
            let result = try DayfoldProcess.run([
                "run", "--input", drop.drop.path, "--output", plain.path, "--as-of", "2026-03-\(day)T12:00:00Z",
            ])
            #expect(result.status == 0, "\(result.stderr)")
            let report = try String(
                contentsOf: plain.appendingPathComponent("reports/risk_signals.csv"), encoding: .utf8)
            let read = report.split(separator: "\n").filter {
                $0.contains(",MISSED_CHECK_INS,") || $0.contains(",PAIN_REPORTED,")
            }
            #expect(
                read.count == signals.count
                    && zip(read, signals).allSatisfy { $0.hasPrefix("r1,u1,2026-03-\(day),\($1),") },
                "as of 2026-03-\(day): \(read)")
            let part = "history/risk_signals/as_of_date=2026-03-\(day)/part-0.parquet"
            #expect(
                try Data(contentsOf: series.appendingPathComponent(part))
                    == Data(contentsOf: plain.appendingPathComponent("snapshots/risk_signals.parquet")), "\(part)")
        }
    }

    @Test func aSeriesWithAnAsOfIsAUsageError() throws {
        let root = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let both = try DayfoldProcess.run([
            "run", Self.pipeline, "--input", Self.input, "--output", root.appendingPathComponent("a").path,
            "--as-of", "2026-03-30T18:00:00Z", "--as-of-series", "2026-03-28T18:00:00Z..2026-03-30T18:00:00Z",
        ])
        #expect(both.status == 2 && both.stderr.contains("--as-of and --as-of-series"), "\(both.stderr)")
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("a").path), "nothing published")
    }

    /// Under a memory budget each step is a partitioned run: the history
    /// and the outputs are, byte for byte, the whole series run's.
    @Test func aSeriesUnderABudgetEqualsTheWholeSeries() throws {
        let root = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        var trees: [[String: String]] = []
        for (name, extra) in [("whole", [String]()), ("budget", ["--max-memory", "2M"])] {
            let output = root.appendingPathComponent(name)
            let run = try DayfoldProcess.run(
                [
                    "run", Self.pipeline, "--input", Self.input, "--output", output.path, "--as-of-series",
                    "2026-03-28T18:00:00Z..2026-03-30T18:00:00Z",
                ] + extra)
            #expect(run.status == 0, "\(run.stderr)")
            var tree = try TreeSnapshot.of(output)
            tree.removeValue(forKey: "manifest.json")
            trees.append(tree)
            let manifest = try String(contentsOf: output.appendingPathComponent("manifest.json"), encoding: .utf8)
            #expect(manifest.contains("history/streaks/as_of_date=2026-03-28/part-0.parquet"))
        }
        #expect(trees[0].keys.contains("history/risk_signals/as_of_date=2026-03-29/part-0.parquet"))
        #expect(trees[0] == trees[1], "\(Set(trees[0].map { "\($0)" }).symmetricDifference(trees[1].map { "\($0)" }))")
    }
}
