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
