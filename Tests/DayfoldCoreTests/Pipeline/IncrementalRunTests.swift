import Foundation
import Testing

@testable import DayfoldCore

/// `--state DIR` (SPEC §12): after every change to a drop — new night files,
/// an edited old file, a removed file, a re-export, a journal revision that
/// moves an entry across midnight, the as-of moving forward or onto a DST
/// night, a damaged state — a run with the state publishes, byte for byte,
/// what a run without it publishes, whole and under a memory budget.
@Suite struct IncrementalRunTests {
    static let outputs = PartitionedRunTests.files

    /// One change to the drop (or the as-of, or the state) between two runs.
    enum Change: CaseIterable {
        case newNightFile, editOldFile, removeFile, reExport, revisionAcrossMidnight, asOfForward, dstAsOf
        case corruptStateFile, removeStoredPartition, truncateStoredPart, nothing
    }

    /// The drop being changed, its as-of and its state, in one folder.
    struct Scenario {
        var root: URL
        var drop: URL { root.appendingPathComponent("drop") }
        var state: URL { root.appendingPathComponent("state") }
        var asOf: Date
        var random: SeededRandom
        var serial = 0

        var asOfText: String { ISO8601DateFormatter().string(from: asOf) }

        func csvFiles(under folder: String) -> [URL] {
            let base = drop.appendingPathComponent(folder)
            let names = (try? FileManager.default.subpathsOfDirectory(atPath: base.path)) ?? []
            return names.filter { $0.hasSuffix(".csv") }.sorted().map { base.appendingPathComponent($0) }
        }

        /// Applies `change`; returns what it did (for the failure message).
        mutating func apply(_ change: Change) throws -> String {
            serial += 1
            let manager = FileManager.default
            switch change {
            case .newNightFile:
                // Last rows of an event or journal file again, under new ids: a night's new export.
                let files = csvFiles(under: "tasks/status_events") + csvFiles(under: "journal")
                guard !files.isEmpty else { return "no file to extend" }
                let source = random.pick(files)
                let lines = try Self.lines(source)
                guard lines.count > 1 else { return "\(source.lastPathComponent) has no rows" }
                let rows = lines.dropFirst().suffix(1 + random.below(20)).map { row -> String in
                    guard let comma = row.firstIndex(of: ",") else { return row }
                    return String(row[..<comma]) + "-night\(serial)" + String(row[comma...])
                }
                let target = source.deletingLastPathComponent().appendingPathComponent("night-\(serial).csv")
                try Self.write([lines[0]] + rows, to: target)
                return "new \(target.lastPathComponent) with \(rows.count) rows from \(source.lastPathComponent)"
            case .editOldFile:
                let files = csvFiles(under: "tasks") + csvFiles(under: "journal") + csvFiles(under: "health")
                guard !files.isEmpty else { return "no file to edit" }
                let file = random.pick(files)
                var lines = try Self.lines(file)
                guard lines.count > 1 else { return "\(file.lastPathComponent) has no rows" }
                let index = 1 + random.below(lines.count - 1)
                var bytes = Array(lines[index].utf8)
                guard let digit = bytes.indices.filter({ (0x30...0x39).contains(bytes[$0]) }).last else {
                    return "no digit in row \(index)"
                }
                bytes[digit] = bytes[digit] == 0x39 ? 0x30 : bytes[digit] + 1
                lines[index] = String(decoding: bytes, as: UTF8.self)
                try Self.write(lines, to: file)
                return "\(file.lastPathComponent): row \(index) edited"
            case .removeFile:
                let files = csvFiles(under: "tasks") + csvFiles(under: "journal") + csvFiles(under: "push")
                guard files.count > 1 else { return "nothing to remove" }
                let file = random.pick(files)
                try manager.removeItem(at: file)
                return "\(file.lastPathComponent) removed"
            case .reExport:
                let files = csvFiles(under: "tasks/instances")
                guard let file = files.isEmpty ? nil : random.pick(files) else { return "no instances file" }
                let target = file.deletingLastPathComponent().appendingPathComponent("reexport-\(serial).csv")
                try manager.copyItem(at: file, to: target)
                return "\(file.lastPathComponent) re-exported as \(target.lastPathComponent)"
            case .revisionAcrossMidnight:
                // A later revision of an entry, cooked 13 hours later: another local day.
                let files = csvFiles(under: "journal")
                guard let file = files.first else { return "no journal" }
                let lines = try Self.lines(file)
                guard lines.count > 1 else { return "empty journal" }
                var fields = lines[1 + random.below(lines.count - 1)].split(
                    separator: ",", omittingEmptySubsequences: false
                )
                .map(String.init)
                guard fields.count > 4, let cooked = ISO8601DateFormatter().date(from: fields[2]),
                    let revision = Int(fields[3])
                else { return "journal row not as expected" }
                fields[2] = ISO8601DateFormatter().string(from: cooked.addingTimeInterval(13 * 3600))
                fields[3] = String(revision + 10 + serial)
                let target = file.deletingLastPathComponent().appendingPathComponent("revision-\(serial).csv")
                try Self.write([lines[0], fields.joined(separator: ",")], to: target)
                return "entry \(fields[0]) moved 13 h later in \(target.lastPathComponent)"
            case .asOfForward:
                asOf.addTimeInterval(24 * 3600)
                return "as-of → \(asOfText)"
            case .dstAsOf:
                // Europe's change to summer time, 2026-03-29 01:00 UTC, and the US one (03-08).
                asOf = ISO8601DateFormatter().date(
                    from: random.below(2) == 0 ? "2026-03-29T01:30:00Z" : "2026-03-08T07:30:00Z")!
                return "as-of → \(asOfText) (a DST night)"
            case .corruptStateFile:
                let file = state.appendingPathComponent(StateDirectory.fileName)
                guard let data = try? Data(contentsOf: file), data.count > 10 else { return "no state yet" }
                try data.prefix(data.count / 2).write(to: file)
                return "state file truncated"
            case .removeStoredPartition, .truncateStoredPart:
                let partitions = state.appendingPathComponent("partitions")
                let keys = ((try? manager.contentsOfDirectory(atPath: partitions.path)) ?? []).filter {
                    PartitionKey.isKey($0)
                }.sorted()
                guard !keys.isEmpty else { return "no stored partition" }
                let folder = partitions.appendingPathComponent(random.pick(keys))
                if change == .removeStoredPartition {
                    try manager.removeItem(at: folder)
                    return "stored partition \(folder.lastPathComponent.prefix(8)) removed"
                }
                let part = folder.appendingPathComponent("relationship_days.csv")
                let data = try Data(contentsOf: part)
                try data.prefix(data.count / 2).write(to: part)
                return "stored part of \(folder.lastPathComponent.prefix(8)) truncated"
            case .nothing:
                return "no change"
            }
        }

        static func lines(_ file: URL) throws -> [String] {
            try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: true)
                .map(String.init)
        }

        static func write(_ lines: [String], to file: URL) throws {
            try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: file)
        }
    }

    /// Runs `drop` with and without the state; returns the outputs that
    /// differ and the run-with-state's manifest.
    static func compare(_ scenario: Scenario, pipeline: [String], budget: [String]) throws -> (
        different: [String], manifest: [String: Any]
    ) {
        let incremental = scenario.root.appendingPathComponent("incremental")
        let full = scenario.root.appendingPathComponent("full")
        for (output, extra) in [(incremental, ["--state", scenario.state.path]), (full, [])] {
            let result = try DayfoldProcess.run(
                ["run"] + pipeline + [
                    "--input", scenario.drop.path, "--output", output.path, "--as-of", scenario.asOfText,
                ] + budget + extra)
            #expect(result.status == 0 || result.status == 3, "\(result.stderr)")
        }
        let push = FileManager.default.fileExists(atPath: scenario.drop.appendingPathComponent("push").path)
        var different = (outputs + (push ? PartitionedRunTests.pushFiles : [])).filter { file in
            let got = try? Data(contentsOf: incremental.appendingPathComponent(file))
            return got == nil || got != (try? Data(contentsOf: full.appendingPathComponent(file)))
        }
        let manifest = try manifestJSON(incremental)
        // Accounting and input digests as the full run wrote them.
        let fullManifest = try manifestJSON(full)
        func inputs(_ json: [String: Any]) -> [String] {
            ((json["inputs"] as? [[String: Any]]) ?? []).map { entry in
                entry.filter { $0.key != "sha256_from" }.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
                    .joined(separator: " ")
            }
        }
        if inputs(manifest) != inputs(fullManifest) { different.append("manifest inputs") }
        func outputRows(_ json: [String: Any]) -> [String] {
            ((json["outputs"] as? [[String: Any]]) ?? []).map {
                "\($0["path"] ?? "") \($0["rows"] ?? "") \($0["sha256"] ?? "")"
            }
        }
        if outputRows(manifest) != outputRows(fullManifest) { different.append("manifest outputs") }
        return (different, manifest)
    }

    static func manifestJSON(_ output: URL) throws -> [String: Any] {
        let data = try Data(contentsOf: output.appendingPathComponent("manifest.json"))
        return (try JSONSerialization.jsonObject(with: data) as? [String: Any]) ?? [:]
    }

    /// A random sequence of `steps` changes to a copy of `drop`; after each,
    /// the run with a state must equal the run without.
    static func sequence(
        drop: URL, pipeline: [String], asOf: String, budget: [String], seed: UInt64, steps: Int
    ) throws {
        let root = try TestPaths.temporaryDirectory("incremental-\(seed)-\(budget.count)")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.copyItem(at: drop, to: root.appendingPathComponent("drop"))
        var scenario = Scenario(
            root: root, asOf: ISO8601DateFormatter().date(from: asOf)!, random: SeededRandom(seed: seed))
        var history: [String] = ["first run"]
        var modes: [String] = []
        for step in 0...steps {
            if step > 0 { history.append(try scenario.apply(scenario.random.pick(Change.allCases))) }
            let (different, manifest) = try compare(scenario, pipeline: pipeline, budget: budget)
            #expect(different.isEmpty, "after \(history.joined(separator: " → ")): \(different)")
            modes.append("\(manifest["mode"] ?? "?")")
            #expect(manifest["reason"] is String && manifest["recomputed_users"] is Int)
            if step == 0 { #expect(manifest["mode"] as? String == "full") }
        }
        if !budget.isEmpty {
            // Under a budget, some step reused partitions (the sequences include unchanged as-ofs).
            #expect(
                modes.contains("incremental"), "no step was incremental: \(zip(history, modes).map { "\($0): \($1)" })")
        }
    }

    static let sample = TestPaths.repositoryRoot.appendingPathComponent("SampleData/demo")
    static let samplePipeline = [TestPaths.repositoryRoot.appendingPathComponent("Pipelines/sample.json").path]

    /// A 2 MB budget splits SampleData (2.1 MB) into 5 partitions.
    @Test(arguments: [1, 2] as [UInt64])
    func sampleDataUnderABudgetEqualsFullRunsAfterEveryChange(seed: UInt64) throws {
        try Self.sequence(
            drop: Self.sample, pipeline: Self.samplePipeline, asOf: "2026-03-31T18:00:00Z",
            budget: ["--max-memory", "2M"], seed: seed, steps: 6)
    }

    @Test func sampleDataWholeEqualsFullRunsAfterEveryChange() throws {
        try Self.sequence(
            drop: Self.sample, pipeline: Self.samplePipeline, asOf: "2026-03-31T18:00:00Z", budget: [], seed: 7,
            steps: 4)
    }

    @Test func conformanceDropsEqualFullRunsAfterEveryChange() throws {
        for (name, asOf) in [("Conformance", "2026-03-29T09:30:00Z"), ("ConformancePush", "2026-04-05T09:30:00Z")] {
            let root = TestPaths.fixtures.appendingPathComponent(name)
            try Self.sequence(
                drop: root.appendingPathComponent("drop"),
                pipeline: [root.appendingPathComponent("pipeline.json").path],
                asOf: asOf, budget: ["--max-memory", "3M"], seed: 11, steps: 3)
        }
    }

    /// A run that fails (here: its drop lost relationships.csv) publishes
    /// nothing and leaves the state as it was, byte for byte.
    @Test func aFailedRunLeavesThePreviousStateWhole() throws {
        let root = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let drop = root.appendingPathComponent("drop")
        try FileManager.default.copyItem(at: Self.sample, to: drop)
        let state = root.appendingPathComponent("state")
        let arguments = [
            "run", "--input", drop.path, "--output", root.appendingPathComponent("out").path, "--as-of",
            "2026-03-31T18:00:00Z", "--state", state.path,
        ]
        #expect(try DayfoldProcess.run(arguments).status == 0)
        let before = try TreeSnapshot.of(state)
        try FileManager.default.removeItem(at: drop.appendingPathComponent("subjects/relationships.csv"))
        let failed = try DayfoldProcess.run(arguments)
        #expect(failed.status == 1, "\(failed.stderr)")
        #expect(try TreeSnapshot.of(state) == before)
    }

    /// The second run of an unchanged drop takes every digest from the
    /// state and says so; a state of another pipeline is a full run, with why.
    @Test func theManifestSaysWhatTheStateGave() throws {
        let root = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let output = root.appendingPathComponent("out")
        let state = root.appendingPathComponent("state")
        func run(_ extra: [String]) throws -> [String: Any] {
            let result = try DayfoldProcess.run(
                [
                    "run", "--input", Self.sample.path, "--output", output.path, "--as-of", "2026-03-31T18:00:00Z",
                    "--state", state.path,
                ] + extra)
            #expect(result.status == 0, "\(result.stderr)")
            return try Self.manifestJSON(output)
        }
        let first = try run([])
        #expect(first["mode"] as? String == "full")
        #expect((first["reason"] as? String)?.contains("first run") == true)
        let second = try run(["--max-memory", "2M"])
        let inputs = (second["inputs"] as? [[String: Any]]) ?? []
        #expect(!inputs.isEmpty && inputs.allSatisfy { $0["sha256_from"] as? String == "state" })
        let third = try run(["--max-memory", "2M"])
        #expect(third["mode"] as? String == "incremental", "\(third["reason"] ?? "")")
        #expect(third["recomputed_users"] as? Int == 0)
        let verified = try run(["--max-memory", "2M", "--verify-inputs"])
        #expect(((verified["inputs"] as? [[String: Any]]) ?? []).allSatisfy { $0["sha256_from"] == nil })
        let pipeline = root.appendingPathComponent("other.json")
        try Data(#"{"name": "other", "streak_threshold": 0.5}"#.utf8).write(to: pipeline)
        let other = try run([pipeline.path])
        #expect(other["mode"] as? String == "full")
        #expect((other["reason"] as? String)?.contains("pipeline changed") == true, "\(other["reason"] ?? "")")
    }

    @Test func verifyInputsWithoutAStateIsAUsageError() throws {
        let result = try DayfoldProcess.run([
            "run", "--input", Self.sample.path, "--output", "/tmp/never", "--as-of", "2026-03-31T18:00:00Z",
            "--verify-inputs",
        ])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--state"))
    }
}
