import Foundation
import Testing

@testable import DayfoldCore

/// A whole run with a state keeps its reading (`ReadingArchive`) and the
/// next run on the same files reads it instead of the drop when the reading
/// holds for its as-of (`ReadingKeeping`): the outputs are byte for byte a
/// full run's either way, and the manifest says which it was and why.
@Suite struct KeptReadingTests {
    static let pipeline = IncrementalRunTests.samplePipeline
    /// After every row of SampleData: no decision of a reading as of it reads the as-of.
    static let afterLastRow = "2026-06-01T18:00:00Z"
    /// SampleData has one row after this as-of (a reading as of it depends on it).
    static let beforeLastRow = "2026-03-31T18:00:00Z"

    /// A copy of SampleData and its state, in a folder of their own.
    struct Setting {
        var root: URL
        var drop: URL { root.appendingPathComponent("drop") }
        var state: URL { root.appendingPathComponent("state") }

        init(_ name: String = #function) throws {
            root = try TestPaths.temporaryDirectory(name)
            try FileManager.default.copyItem(at: IncrementalRunTests.sample, to: drop)
        }

        /// Runs as of `asOf` with the state, then without, into outputs of
        /// their own; returns the outputs that differ and the first's manifest.
        func run(asOf: String) throws -> (different: [String], manifest: [String: Any]) {
            let date = try #require(ISO8601DateFormatter().date(from: asOf), "whole seconds: \(asOf)")
            let scenario = IncrementalRunTests.Scenario(root: root, asOf: date, random: SeededRandom(seed: 1))
            return try IncrementalRunTests.compare(scenario, pipeline: KeptReadingTests.pipeline, budget: [])
        }

        /// Runs twice as of `asOf`: the first run writes the state, the
        /// second (its files the state's) keeps its reading.
        func primed(asOf: String) throws {
            for _ in 0..<2 {
                let (different, _) = try run(asOf: asOf)
                #expect(different.isEmpty, "\(different)")
            }
        }

        var readings: [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: state.path)) ?? []).filter {
                $0.hasPrefix("reading-") || $0.hasPrefix(".reading.")
            }
        }
    }

    static func reason(_ manifest: [String: Any]) -> String { manifest["reason"] as? String ?? "" }

    @Test func aLaterAsOfOnUnchangedFilesReadsTheKeptReading() throws {
        let setting = try Setting()
        defer { try? FileManager.default.removeItem(at: setting.root) }
        let first = try setting.run(asOf: Self.afterLastRow)
        #expect(first.different.isEmpty, "\(first.different)")
        // A first run keeps no reading: nothing says its files will be read again.
        #expect(setting.readings.isEmpty, "\(setting.readings)")
        let again = try setting.run(asOf: Self.afterLastRow)
        #expect(again.different.isEmpty, "\(again.different)")
        #expect(Self.reason(again.manifest).contains("the state keeps no reading; this run keeps one"))
        #expect(setting.readings.count == 1, "\(setting.readings)")
        let second = try setting.run(asOf: "2026-06-02T18:00:00Z")
        #expect(second.different.isEmpty, "\(second.different)")
        #expect(second.manifest["mode"] as? String == "incremental")
        #expect(Self.reason(second.manifest).contains("reading was kept from the run as of 2026-06-01T18:00:00Z"))
        // The state still names one reading: the one it kept.
        #expect(setting.readings.count == 1, "\(setting.readings)")
    }

    /// The kept reading's window (`AsOfWindow`), from the state file.
    static func window(_ setting: Setting) throws -> (from: Int64?, before: Int64?) {
        let data = try Data(contentsOf: setting.state.appendingPathComponent(StateDirectory.fileName))
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let reading = try #require(json["reading"] as? [String: Any])
        return (
            (reading["holds_from_us"] as? NSNumber)?.int64Value, (reading["holds_before_us"] as? NSNumber)?.int64Value
        )
    }

    /// The whole second at or before `micros` (`down`), or at or after it.
    static func text(micros: Int64, down: Bool) -> String {
        let second = Int64(1_000_000)
        let floor = micros >= 0 ? micros / second * second : (micros - second + 1) / second * second
        return Instant(micros: down || floor == micros ? floor : floor + second).description
    }

    /// A reading with a row after its as-of holds up to (not including)
    /// that row's instant: a retry and an as-of a second before the row
    /// read it; an as-of at the row reads the drop (the row is then
    /// accepted: a reading kept regardless would lose it).
    @Test func aReadingHoldsUpToTheFirstRowItIgnored() throws {
        let setting = try Setting()
        defer { try? FileManager.default.removeItem(at: setting.root) }
        try setting.primed(asOf: Self.beforeLastRow)
        let retry = try setting.run(asOf: Self.beforeLastRow)
        #expect(retry.different.isEmpty, "\(retry.different)")
        #expect(Self.reason(retry.manifest).contains("reading was kept"), "\(Self.reason(retry.manifest))")
        let ignored = try #require(try Self.window(setting).before)
        let justBefore = try setting.run(asOf: Self.text(micros: ignored - 1, down: true))
        #expect(justBefore.different.isEmpty, "\(justBefore.different)")
        #expect(Self.reason(justBefore.manifest).contains("reading was kept"), "\(Self.reason(justBefore.manifest))")
        let at = try setting.run(asOf: Self.text(micros: ignored, down: false))
        #expect(at.different.isEmpty, "\(at.different)")
        #expect(
            Self.reason(at.manifest).contains("ignored a row at \(Instant(micros: ignored)), not after this as-of"),
            "\(Self.reason(at.manifest))")
    }

    /// An earlier as-of holds while it is not before the latest instant the
    /// reading compared; before that, the drop is read.
    @Test func anEarlierAsOfHoldsBackToTheLatestRowItKept() throws {
        let setting = try Setting()
        defer { try? FileManager.default.removeItem(at: setting.root) }
        try setting.primed(asOf: Self.afterLastRow)
        let latest = try #require(try Self.window(setting).from)
        #expect(try Self.window(setting).before == nil)
        let earlierStill = try setting.run(asOf: Self.text(micros: latest, down: false))
        #expect(earlierStill.different.isEmpty, "\(earlierStill.different)")
        #expect(
            Self.reason(earlierStill.manifest).contains("reading was kept"), "\(Self.reason(earlierStill.manifest))")
        let tooEarly = try setting.run(asOf: Self.text(micros: latest - 1, down: true))
        #expect(tooEarly.different.isEmpty, "\(tooEarly.different)")
        #expect(Self.reason(tooEarly.manifest).contains("after this as-of"), "\(Self.reason(tooEarly.manifest))")
    }

    /// A file whose modification time moved (its bytes the same) or a new
    /// file means the drop is read; so does a kept reading that fails its check.
    @Test func aChangedFileOrADamagedReadingReadsTheDrop() throws {
        let setting = try Setting()
        defer { try? FileManager.default.removeItem(at: setting.root) }
        try setting.primed(asOf: Self.afterLastRow)
        let journal = setting.drop.appendingPathComponent("journal/journal-000.csv")
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSince1970: 1e9)], ofItemAtPath: journal.path)
        let touched = try setting.run(asOf: "2026-06-02T18:00:00Z")
        #expect(touched.different.isEmpty, "\(touched.different)")
        #expect(
            Self.reason(touched.manifest).contains("1 input files are new or changed"),
            "\(Self.reason(touched.manifest))")
        // A run whose files changed keeps none; the next one, on the same files, does.
        #expect(setting.readings.isEmpty, "\(setting.readings)")
        let rekept = try setting.run(asOf: "2026-06-02T18:00:00Z")
        #expect(rekept.different.isEmpty, "\(rekept.different)")
        // Damage one byte in the middle of the kept reading.
        let kept = try #require(setting.readings.first)
        let path = setting.state.appendingPathComponent(kept)
        var bytes = try Data(contentsOf: path)
        bytes[bytes.count / 2] ^= 0x01
        try bytes.write(to: path)
        let damaged = try setting.run(asOf: "2026-06-03T18:00:00Z")
        #expect(damaged.different.isEmpty, "\(damaged.different)")
        #expect(
            Self.reason(damaged.manifest).contains("the drop is read whole (the kept reading: "),
            "\(Self.reason(damaged.manifest))")
        // The damaged file is replaced by the new run's reading.
        #expect(setting.readings.count == 1 && setting.readings.first != kept, "\(setting.readings)")
    }

    /// A run under a memory budget keeps no reading, and the state no longer names one.
    @Test func aPartitionedRunDropsTheKeptReading() throws {
        let setting = try Setting()
        defer { try? FileManager.default.removeItem(at: setting.root) }
        try setting.primed(asOf: Self.afterLastRow)
        #expect(setting.readings.count == 1, "\(setting.readings)")
        let output = setting.root.appendingPathComponent("budget")
        let result = try DayfoldProcess.run(
            ["run"] + Self.pipeline + [
                "--input", setting.drop.path, "--output", output.path, "--as-of", Self.afterLastRow, "--state",
                setting.state.path, "--max-memory", "2M",
            ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(setting.readings.isEmpty, "\(setting.readings)")
        let whole = try setting.run(asOf: "2026-06-02T18:00:00Z")
        #expect(whole.different.isEmpty, "\(whole.different)")
        #expect(
            Self.reason(whole.manifest).contains("the state keeps no reading; this run keeps one"),
            "\(Self.reason(whole.manifest))")
    }

    /// The push conformance drop (push rows, health, journal, a default
    /// zone) read back from its kept reading publishes a full run's bytes.
    @Test func theConformancePushDropReadsBackWhole() throws {
        let fixture = TestPaths.fixtures.appendingPathComponent("ConformancePush")
        let root = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.copyItem(
            at: fixture.appendingPathComponent("drop"), to: root.appendingPathComponent("drop"))
        let pipeline = [fixture.appendingPathComponent("pipeline.json").path]
        for asOf in ["2026-09-01T00:00:00Z", "2026-09-01T00:00:00Z", "2026-09-02T00:00:00Z"] {
            let date = try #require(ISO8601DateFormatter().date(from: asOf))
            let scenario = IncrementalRunTests.Scenario(root: root, asOf: date, random: SeededRandom(seed: 1))
            let (different, manifest) = try IncrementalRunTests.compare(scenario, pipeline: pipeline, budget: [])
            #expect(different.isEmpty, "\(asOf): \(different)")
            if asOf.hasPrefix("2026-09-02") {
                #expect(Self.reason(manifest).contains("reading was kept"), "\(Self.reason(manifest))")
            }
        }
    }
}
