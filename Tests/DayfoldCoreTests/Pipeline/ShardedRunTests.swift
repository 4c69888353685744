import Foundation
import Testing

@testable import DayfoldCore

/// `dayfold shard`, a run per shard and `dayfold merge` (SPEC §13) publish
/// what one run of the whole drop publishes: reports, snapshots, rejects
/// and the manifest's accounting and input digests, byte for byte.
@Suite struct ShardedRunTests {
    static let sample = TestPaths.repositoryRoot.appendingPathComponent("SampleData/demo")
    static let samplePipeline = TestPaths.repositoryRoot.appendingPathComponent("Pipelines/sample.json").path

    /// Shards `drop` into `shards`, runs each, merges; returns the files
    /// that differ from a whole run's and the shard step's manifest.
    static func differences(
        drop: URL, pipeline: String, asOf: String, shards: Int
    ) throws -> (different: [String], shardManifest: [String: Any], root: URL) {
        let root = try TestPaths.temporaryDirectory(
            "sharded-\(shards)-\(drop.deletingLastPathComponent().lastPathComponent)")
        let sharded = root.appendingPathComponent("shards")
        let shard = try DayfoldProcess.run(["shard", drop.path, "--shards", "\(shards)", "--out", sharded.path])
        #expect(shard.status == 0, "\(shard.stderr)")
        var outputs: [String] = []
        for index in 0..<shards {
            let output = root.appendingPathComponent("out-\(index)").path
            let run = try DayfoldProcess.run([
                "run", pipeline, "--input", sharded.appendingPathComponent("shard=\(index)").path, "--output", output,
                "--as-of", asOf,
            ])
            #expect(run.status == 0, "shard \(index): \(run.stderr)")
            outputs.append(output)
        }
        let merged = root.appendingPathComponent("merged")
        let merge = try DayfoldProcess.run(["merge"] + outputs.reversed() + ["--output", merged.path])
        #expect(merge.status == 0, "\(merge.stderr)")
        let whole = root.appendingPathComponent("whole")
        let run = try DayfoldProcess.run([
            "run", pipeline, "--input", drop.path, "--output", whole.path, "--as-of", asOf,
        ])
        #expect(run.status == 0 || run.status == 3, "\(run.stderr)")
        let push = FileManager.default.fileExists(atPath: drop.appendingPathComponent("push").path)
        var different = (PartitionedRunTests.files + (push ? PartitionedRunTests.pushFiles : [])).filter { file in
            let got = try? Data(contentsOf: merged.appendingPathComponent(file))
            return got == nil || got != (try? Data(contentsOf: whole.appendingPathComponent(file)))
        }
        func manifest(_ folder: URL) throws -> String {
            try String(contentsOf: folder.appendingPathComponent("manifest.json"), encoding: .utf8)
                .split(separator: "\n").filter { !$0.contains("timings") }.joined(separator: "\n")
        }
        if try manifest(merged) != manifest(whole) { different.append("manifest.json") }
        let data = try Data(contentsOf: sharded.appendingPathComponent("manifest.json"))
        return (different, (try JSONSerialization.jsonObject(with: data) as? [String: Any]) ?? [:], root)
    }

    /// One shard, three, and more shards than the drop has users (most empty).
    @Test(arguments: [1, 3, 40])
    func shardRunAndMergeEqualAWholeRun(shards: Int) throws {
        let (different, manifest, root) = try Self.differences(
            drop: Self.sample, pipeline: Self.samplePipeline, asOf: "2026-03-31T18:00:00Z", shards: shards)
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(different.isEmpty, "\(different)")
        // Every data row of a routed file is in exactly one shard.
        let whole = try IncrementalRunTests.manifestJSON(root.appendingPathComponent("whole"))
        var readByPath: [String: Int] = [:]
        for input in (whole["inputs"] as? [[String: Any]]) ?? [] {
            readByPath[input["path"] as? String ?? ""] = input["rows_read"] as? Int
        }
        let inputs = (manifest["inputs"] as? [[String: Any]]) ?? []
        #expect(!inputs.isEmpty)
        for input in inputs {
            guard let byShard = input["rows_by_shard"] as? [Int] else { continue }
            #expect(byShard.count == shards)
            let path = input["path"] as? String ?? ""
            #expect(byShard.reduce(0, +) == input["rows_read"] as? Int)
            #expect(readByPath[path] == input["rows_read"] as? Int, "\(path)")
        }
    }

    @Test func conformanceDropsShardedEqualWholeRuns() throws {
        for (name, asOf) in [("Conformance", "2026-03-29T09:30:00Z"), ("ConformancePush", "2026-04-05T09:30:00Z")] {
            let fixture = TestPaths.fixtures.appendingPathComponent(name)
            let (different, _, root) = try Self.differences(
                drop: fixture.appendingPathComponent("drop"),
                pipeline: fixture.appendingPathComponent("pipeline.json").path, asOf: asOf, shards: 3)
            try? FileManager.default.removeItem(at: root)
            #expect(different.isEmpty, "\(name): \(different)")
        }
    }

    /// A generated drop (every file kind, health CSV and push included), in
    /// five shards.
    @Test func aGeneratedDropShardedEqualsAWholeRun() throws {
        let root = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let drop = root.appendingPathComponent("generated")
        let made = try DayfoldProcess.run([
            "generate", "--clients", "15", "--days", "45", "--seed", "11", "--out", drop.path,
        ])
        #expect(made.status == 0, "\(made.stderr)")
        let (different, _, work) = try Self.differences(
            drop: drop, pipeline: Self.samplePipeline, asOf: "2026-06-01T12:00:00Z", shards: 5)
        try? FileManager.default.removeItem(at: work)
        #expect(different.isEmpty, "\(different)")
    }

    /// A group of users goes to FNV-1a 64 of its smallest user id modulo N:
    /// a user alone in its group to its own id's; a user tied to others by
    /// shared ids to the shard of a smaller id of that shard.
    @Test func aUsersShardIsTheDocumentedHashOfItsGroup() throws {
        let root = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let sharded = root.appendingPathComponent("shards")
        #expect(
            try DayfoldProcess.run(["shard", Self.sample.path, "--shards", "5", "--out", sharded.path]).status == 0)
        var own = 0
        for index in 0..<5 {
            let data = try Data(contentsOf: sharded.appendingPathComponent("shard=\(index)/\(ShardMarker.fileName)"))
            let marker = try JSONDecoder().decode(ShardMarker.self, from: data)
            #expect(marker.shard == index && marker.shards == 5)
            for user in marker.ownedUsers {
                if StableAssignment.partition(of: user, among: 5) == index {
                    own += 1
                    continue
                }
                let leader = marker.ownedUsers.first {
                    bytesLess($0, user) && StableAssignment.partition(of: $0, among: 5) == index
                }
                #expect(leader != nil, "\(user) is in shard \(index) with no smaller id hashed there")
            }
        }
        #expect(own > 5)
    }

    @Test func mergeRefusesOtherAsOfsAndMissingOrRepeatedShards() throws {
        let root = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let sharded = root.appendingPathComponent("shards")
        #expect(
            try DayfoldProcess.run(["shard", Self.sample.path, "--shards", "2", "--out", sharded.path]).status == 0)
        func run(_ index: Int, _ asOf: String) throws -> String {
            let output = root.appendingPathComponent("out-\(index)-\(asOf.prefix(10))").path
            let result = try DayfoldProcess.run([
                "run", Self.samplePipeline, "--input", sharded.appendingPathComponent("shard=\(index)").path,
                "--output", output, "--as-of", asOf,
            ])
            #expect(result.status == 0, "\(result.stderr)")
            return output
        }
        let zero = try run(0, "2026-03-31T18:00:00Z")
        let one = try run(1, "2026-03-31T18:00:00Z")
        let oneLater = try run(1, "2026-04-01T18:00:00Z")
        let merged = root.appendingPathComponent("merged")
        for (parts, message) in [
            ([zero, oneLater], "another as-of"), ([zero], "missing"), ([zero, one, one], "twice"),
            ([zero, sharded.path], "not the output of a shard run"),
        ] {
            let result = try DayfoldProcess.run(["merge"] + parts + ["--output", merged.path])
            #expect(result.status == 2, "\(parts): \(result.stderr)")
            #expect(result.stderr.contains(message), "\(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: merged.path))
        }
        // Shards go into a new or empty folder only.
        let again = try DayfoldProcess.run(["shard", Self.sample.path, "--shards", "2", "--out", sharded.path])
        #expect(again.status == 2 && again.stderr.contains("not empty"), "\(again.stderr)")
    }

    /// The merge judges the whole drop's share of rejects, as a whole run
    /// does (exit 3 after publishing), while a shard's run does not judge its
    /// own; `--strict` makes the drop's warnings exit 3 too.
    @Test func mergeExitsThreeWhereAWholeRunWould() throws {
        let root = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let pipeline = root.appendingPathComponent("strict.json")
        try Data(
            #"{"name": "sample", "input": "\#(Self.sample.path)", "max_reject_fraction": 0.001}"#.utf8
        ).write(to: pipeline)
        let asOf = "2026-03-31T18:00:00Z"
        let whole = try DayfoldProcess.run([
            "run", pipeline.path, "--output", root.appendingPathComponent("whole").path, "--as-of", asOf,
        ])
        #expect(whole.status == 3, "\(whole.stderr)")
        let sharded = root.appendingPathComponent("shards")
        #expect(
            try DayfoldProcess.run(["shard", Self.sample.path, "--shards", "2", "--out", sharded.path]).status == 0)
        var outputs: [String] = []
        for index in 0..<2 {
            let output = root.appendingPathComponent("out-\(index)").path
            let run = try DayfoldProcess.run([
                "run", pipeline.path, "--input", sharded.appendingPathComponent("shard=\(index)").path, "--output",
                output, "--as-of", asOf,
            ])
            #expect(run.status == 0, "shard \(index): \(run.stderr)")
            outputs.append(output)
        }
        let merged = try DayfoldProcess.run(
            ["merge"] + outputs + ["--output", root.appendingPathComponent("merged").path])
        #expect(merged.status == 3, "\(merged.stderr)")
        #expect(merged.stderr.contains("exceed max_reject_fraction 0.001"), "\(merged.stderr)")

        // Within the default fraction, only --strict turns the drop's warning into exit 3.
        var lenient: [String] = []
        for index in 0..<2 {
            let output = root.appendingPathComponent("lenient-\(index)").path
            let run = try DayfoldProcess.run([
                "run", Self.samplePipeline, "--input", sharded.appendingPathComponent("shard=\(index)").path,
                "--output", output, "--as-of", asOf,
            ])
            #expect(run.status == 0, "\(run.stderr)")
            lenient.append(output)
        }
        let plain = try DayfoldProcess.run(
            ["merge"] + lenient + ["--output", root.appendingPathComponent("plain").path])
        #expect(plain.status == 0, "\(plain.stderr)")
        let strict = try DayfoldProcess.run(
            ["merge"] + lenient + ["--output", root.appendingPathComponent("strict").path, "--strict"])
        #expect(strict.status == 3, "\(strict.stderr)")
        #expect(strict.stderr.contains("--strict"), "\(strict.stderr)")
    }

    /// Two drops of disjoint users side by side as one drop: subject files
    /// joined (one header), every other file copied under a `<split>-` name
    /// (so each split's files keep their order).
    static func union(of splits: [(name: String, drop: URL)], into union: URL) throws {
        let files = FileManager.default
        for (name, drop) in splits {
            let walker = try #require(files.enumerator(at: drop, includingPropertiesForKeys: [.isRegularFileKey]))
            for case let file as URL in walker
            where (try file.resourceValues(forKeys: [.isRegularFileKey])).isRegularFile == true {
                let relative = String(file.path.dropFirst(drop.path.count + 1))
                let folder = (relative as NSString).deletingLastPathComponent
                try files.createDirectory(
                    at: union.appendingPathComponent(folder), withIntermediateDirectories: true)
                if relative.hasPrefix("subjects/") {
                    let target = union.appendingPathComponent(relative)
                    let text = try String(contentsOf: file, encoding: .utf8)
                    if let existing = try? String(contentsOf: target, encoding: .utf8) {
                        let rows = text.split(separator: "\n", omittingEmptySubsequences: false).dropFirst()
                        try (existing + rows.joined(separator: "\n")).write(
                            to: target, atomically: true, encoding: .utf8)
                    } else {
                        try text.write(to: target, atomically: true, encoding: .utf8)
                    }
                } else {
                    try files.copyItem(
                        at: file,
                        to: union.appendingPathComponent(folder).appendingPathComponent(
                            name + "-" + file.lastPathComponent))
                }
            }
        }
    }

    /// An export already split by user (SPEC §13) skips `dayfold shard`:
    /// each split runs with `--presplit K/N` and the merge publishes the
    /// reports and snapshots of a whole run over the splits side by side;
    /// its manifest and rejects name each split's files under its folder.
    @Test func presplitExportsMergeIntoTheRunOfTheirUnion() throws {
        let root = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let asOf = "2026-05-01T12:00:00Z"
        let splits = [("eu", 3, 1), ("us", 4, 2)].map { name, clients, seed in
            (name: name, drop: root.appendingPathComponent("export/\(name)"), clients: clients, seed: seed)
        }
        for split in splits {
            let made = try DayfoldProcess.run([
                "generate", "--clients", "\(split.clients)", "--days", "30", "--seed", "\(split.seed)", "--out",
                split.drop.path,
            ])
            #expect(made.status == 0, "\(made.stderr)")
        }
        let union = root.appendingPathComponent("union")
        try Self.union(of: splits.map { ($0.name, $0.drop) }, into: union)
        let whole = root.appendingPathComponent("whole")
        let run = try DayfoldProcess.run(["run", "--input", union.path, "--output", whole.path, "--as-of", asOf])
        #expect(run.status == 0, "\(run.stderr)")
        var outputs: [String] = []
        for (index, split) in splits.enumerated() {
            let output = root.appendingPathComponent("out-\(split.name)").path
            let part = try DayfoldProcess.run([
                "run", "--input", split.drop.path, "--output", output, "--as-of", asOf, "--presplit", "\(index)/2",
            ])
            #expect(part.status == 0, "\(part.stderr)")
            outputs.append(output)
        }
        let merged = root.appendingPathComponent("merged")
        let merge = try DayfoldProcess.run(["merge"] + outputs + ["--output", merged.path])
        #expect(merge.status == 0, "\(merge.stderr)")
        let different = (PartitionedRunTests.files + PartitionedRunTests.pushFiles).filter { file in
            file.hasPrefix("rejects/")
                ? false
                : (try? Data(contentsOf: merged.appendingPathComponent(file)))
                    != (try? Data(contentsOf: whole.appendingPathComponent(file)))
        }
        #expect(different.isEmpty, "\(different)")
        let manifest = try IncrementalRunTests.manifestJSON(merged)
        let paths = ((manifest["inputs"] as? [[String: Any]]) ?? []).compactMap { $0["path"] as? String }
        #expect(
            paths.contains("eu/subjects/relationships.csv") && paths.contains("us/tasks/instances/instances-000.csv"))
        let read = { (json: [String: Any]) in
            ((json["inputs"] as? [[String: Any]]) ?? []).reduce(0) { $0 + (($1["rows_read"] as? Int) ?? 0) }
        }
        #expect(read(manifest) == read(try IncrementalRunTests.manifestJSON(whole)))
        let rejects = try String(contentsOf: merged.appendingPathComponent("rejects/rejects.csv"), encoding: .utf8)
        let wholeRejects = try String(contentsOf: whole.appendingPathComponent("rejects/rejects.csv"), encoding: .utf8)
        #expect(rejects.split(separator: "\n").count == wholeRejects.split(separator: "\n").count)

        // A shard of dayfold shard needs no --presplit, and the two kinds do not merge.
        let sharded = root.appendingPathComponent("shards")
        #expect(try DayfoldProcess.run(["shard", union.path, "--shards", "2", "--out", sharded.path]).status == 0)
        let refused = try DayfoldProcess.run([
            "run", "--input", sharded.appendingPathComponent("shard=0").path, "--output",
            root.appendingPathComponent("x").path, "--as-of", asOf, "--presplit", "0/2",
        ])
        #expect(refused.status == 2 && refused.stderr.contains("without --presplit"), "\(refused.stderr)")
        let shardOutput = root.appendingPathComponent("shard-out").path
        #expect(
            try DayfoldProcess.run([
                "run", "--input", sharded.appendingPathComponent("shard=1").path, "--output", shardOutput, "--as-of",
                asOf,
            ]).status == 0)
        let mixed = try DayfoldProcess.run([
            "merge", outputs[0], shardOutput, "--output", root.appendingPathComponent("mixed").path,
        ])
        #expect(mixed.status == 2 && mixed.stderr.contains("another kind of split"), "\(mixed.stderr)")
        for bad in ["2/2", "1", "a/b", "0/0"] {
            let result = try DayfoldProcess.run([
                "run", "--input", splits[0].drop.path, "--output", root.appendingPathComponent("y").path, "--as-of",
                asOf, "--presplit", bad,
            ])
            #expect(result.status == 2 && result.stderr.contains("expected K/N"), "\(bad): \(result.stderr)")
        }
    }
}
