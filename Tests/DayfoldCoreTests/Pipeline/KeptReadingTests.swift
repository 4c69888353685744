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
            var scenario = IncrementalRunTests.Scenario(
                root: root, asOf: ISO8601DateFormatter().date(from: asOf) ?? Date(), random: SeededRandom(seed: 1))
            scenario.serial = 0
            return try IncrementalRunTests.compare(scenario, pipeline: KeptReadingTests.pipeline, budget: [])
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
        #expect(setting.readings.count == 1, "\(setting.readings)")
        let second = try setting.run(asOf: "2026-06-02T18:00:00Z")
        #expect(second.different.isEmpty, "\(second.different)")
        #expect(second.manifest["mode"] as? String == "incremental")
        #expect(Self.reason(second.manifest).contains("reading was kept from the run as of 2026-06-01T18:00:00Z"))
        // The state still names one reading: the one it kept.
        #expect(setting.readings.count == 1, "\(setting.readings)")
    }

    /// A reading with a row after its as-of holds for that as-of only: a
    /// retry at the same as-of reads it, a later as-of reads the drop (the
    /// row is then accepted: a reading kept regardless would lose it).
    @Test func aReadingThatReadTheAsOfHoldsForThatAsOfOnly() throws {
        let setting = try Setting()
        defer { try? FileManager.default.removeItem(at: setting.root) }
        _ = try setting.run(asOf: Self.beforeLastRow)
        let retry = try setting.run(asOf: Self.beforeLastRow)
        #expect(retry.different.isEmpty, "\(retry.different)")
        #expect(Self.reason(retry.manifest).contains("reading was kept"), "\(Self.reason(retry.manifest))")
        let later = try setting.run(asOf: Self.afterLastRow)
        #expect(later.different.isEmpty, "\(later.different)")
        #expect(
            Self.reason(later.manifest).contains("1 rows of the kept reading were after its as-of"),
            "\(Self.reason(later.manifest))")
    }

    @Test func anEarlierAsOfReadsTheDrop() throws {
        let setting = try Setting()
        defer { try? FileManager.default.removeItem(at: setting.root) }
        _ = try setting.run(asOf: Self.afterLastRow)
        let earlier = try setting.run(asOf: Self.beforeLastRow)
        #expect(earlier.different.isEmpty, "\(earlier.different)")
        #expect(Self.reason(earlier.manifest).contains("the as-of is before the kept reading's"))
    }

    /// A file whose modification time moved (its bytes the same) or a new
    /// file means the drop is read; so does a kept reading that fails its check.
    @Test func aChangedFileOrADamagedReadingReadsTheDrop() throws {
        let setting = try Setting()
        defer { try? FileManager.default.removeItem(at: setting.root) }
        _ = try setting.run(asOf: Self.afterLastRow)
        let journal = setting.drop.appendingPathComponent("journal/journal-000.csv")
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSince1970: 1e9)], ofItemAtPath: journal.path)
        let touched = try setting.run(asOf: "2026-06-02T18:00:00Z")
        #expect(touched.different.isEmpty, "\(touched.different)")
        #expect(
            Self.reason(touched.manifest).contains("1 input files are new or changed"),
            "\(Self.reason(touched.manifest))")
        // That run kept a reading again; damage one byte in the middle of it.
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
        _ = try setting.run(asOf: Self.afterLastRow)
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
        #expect(Self.reason(whole.manifest).contains("the state keeps no reading"), "\(Self.reason(whole.manifest))")
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
        for asOf in ["2026-09-01T00:00:00Z", "2026-09-02T00:00:00Z"] {
            let scenario = IncrementalRunTests.Scenario(
                root: root, asOf: ISO8601DateFormatter().date(from: asOf) ?? Date(), random: SeededRandom(seed: 1))
            let (different, manifest) = try IncrementalRunTests.compare(scenario, pipeline: pipeline, budget: [])
            #expect(different.isEmpty, "\(asOf): \(different)")
            if asOf.hasPrefix("2026-09-02") {
                #expect(Self.reason(manifest).contains("reading was kept"), "\(Self.reason(manifest))")
            }
        }
    }
}
