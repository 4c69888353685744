import Foundation
import Testing

/// Seeded mutations of a small cut of the conformance drop (SPEC §10
/// "Hostile and broken input never crashes, hangs or leaks"): truncations,
/// byte flips, stray quotes and NULs, CRLF mixes, giant fields, broken
/// zstd/gzip/zip and XML, links and FIFOs. For every mutated drop `validate`
/// must end by itself (no hang) with an exit code of SPEC §7 (no crash) and,
/// when it reads the drop, balanced accounting for every file; for every
/// fourth drop `run` must publish balanced accounting or, on exit 1 or 2,
/// leave the previous outputs byte for byte as they were.
///
/// `DAYFOLD_FUZZ_DROPS=N` sets how many drops (default 240);
/// `DAYFOLD_FUZZ_SEED=S` where the seeds start.
@Suite struct FuzzedDropTests {
    static let seedDrop = TestPaths.fixtures.appendingPathComponent("FuzzSeed/drop")
    static let asOf = "2026-03-29T09:30:00Z"
    static let environment = ProcessInfo.processInfo.environment
    static let drops = Int(environment["DAYFOLD_FUZZ_DROPS"] ?? "") ?? 240
    static let firstSeed = UInt64(environment["DAYFOLD_FUZZ_SEED"] ?? "") ?? 1
    /// A run of the small drop takes well under a second; 20 s is a hang.
    static let limit: TimeInterval = 20

    @Test func mutatedDropsNeverCrashHangOrUnbalanceTheAccounting() async throws {
        let work = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let baseline = work.appendingPathComponent("baseline")
        let published = try BoundedProcess.run(
            ["run", "--input", Self.seedDrop.path, "--output", baseline.path, "--as-of", Self.asOf], limit: Self.limit)
        try #require([0, 3].contains(published.status), "the seed drop must publish: \(published.stderr)")
        let seeds = (0..<UInt64(Self.drops)).map { Self.firstSeed + $0 }
        let (findings, exits) = try await withThrowingTaskGroup(of: Checked.self) { group in
            var findings: [String] = []
            var exits: [String: Int] = [:]
            var next = seeds.makeIterator()
            // Two at a time: one per core.
            for _ in 0..<2 {
                if let seed = next.next() { group.addTask { try Self.check(seed: seed, in: work, baseline: baseline) } }
            }
            while let checked = try await group.next() {
                findings += checked.findings
                for exit in checked.exits { exits[exit, default: 0] += 1 }
                if let seed = next.next() { group.addTask { try Self.check(seed: seed, in: work, baseline: baseline) } }
            }
            return (findings, exits)
        }
        // The spread of exit codes shows the mutations reach every outcome.
        print(
            "fuzz: \(Self.drops) drops from seed \(Self.firstSeed): \(exits.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))"
        )
        #expect(findings.isEmpty, "\(findings.count) findings:\n\(findings.prefix(40).joined(separator: "\n"))")
    }

    /// What one mutated drop gave: the problems found, and each command's exit code.
    struct Checked: Sendable {
        var findings: [String]
        var exits: [String]
    }

    /// Mutates a copy of the seed drop with `seed` and checks it.
    static func check(seed: UInt64, in work: URL, baseline: URL) throws -> Checked {
        let root = work.appendingPathComponent("drop-\(seed)")
        try FileManager.default.copyItem(at: seedDrop, to: root)
        defer { try? FileManager.default.removeItem(at: root) }
        var random = SeededRandom(seed: seed)
        var applied: [String] = []
        for _ in 0..<random.below(3) + 1 { applied.append(try DropMutation.apply(to: root, random: &random)) }
        let label = "seed \(seed) [\(applied.joined(separator: "; "))]"
        var findings: [String] = []
        let validated = try BoundedProcess.run(
            ["validate", root.path, "--as-of", asOf, "--json"], limit: limit)
        var exits = ["validate exit \(validated.status)"]
        findings += problems(validated, label: "\(label) validate")
        if validated.status == 0 || validated.status == 3 {
            findings += accountingProblems(json: validated.stdout).map { "\(label) validate: \($0)" }
        }
        if seed % 4 == 0 {
            let output = work.appendingPathComponent("out-\(seed)")
            try FileManager.default.copyItem(at: baseline, to: output)
            defer { try? FileManager.default.removeItem(at: output) }
            let before = try TreeSnapshot.of(output)
            let ran = try BoundedProcess.run(
                ["run", "--input", root.path, "--output", output.path, "--as-of", asOf], limit: limit)
            exits.append("run exit \(ran.status)")
            findings += problems(ran, label: "\(label) run")
            if ran.status == 1 || ran.status == 2 {
                let after = try TreeSnapshot.of(output)
                let changed = Set(before.keys).union(after.keys).filter { before[$0] != after[$0] }.sorted()
                if !changed.isEmpty { findings.append("\(label) run exit \(ran.status) changed outputs: \(changed)") }
            } else if ran.status == 0 || ran.status == 3 {
                let manifest = output.appendingPathComponent("manifest.json")
                let text = (try? String(contentsOf: manifest, encoding: .utf8)) ?? ""
                findings += accountingProblems(json: text).map { "\(label) run: \($0)" }
            }
            let leftovers = ((try? FileManager.default.contentsOfDirectory(atPath: work.path)) ?? [])
                .filter { $0.hasPrefix(".dayfold-") && $0.contains("out-\(seed).") }
            if !leftovers.isEmpty { findings.append("\(label) run left \(leftovers)") }
        }
        return Checked(findings: findings, exits: exits)
    }

    /// A process that hung, crashed or exited with a code SPEC §7 does not
    /// have, or failed without saying why.
    static func problems(_ result: BoundedProcess, label: String) -> [String] {
        if result.timedOut { return ["\(label): no end after \(Int(limit)) s (hang)"] }
        if result.signaled {
            return ["\(label): ended by signal \(result.status) (crash): \(result.stderr.suffix(300))"]
        }
        guard [0, 1, 2, 3].contains(result.status) else { return ["\(label): exit \(result.status)"] }
        if (result.status == 1 || result.status == 2) && !result.stderr.contains("error") {
            return ["\(label): exit \(result.status) without an error message: \(result.stderr.suffix(300))"]
        }
        return []
    }

    /// Files whose `rows_read` is not accepted + duplicate + ignored + rejected
    /// (in `validate --json`'s `files` or the manifest's `inputs`).
    static func accountingProblems(json: String) -> [String] {
        guard let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any],
            let files = (object["files"] ?? object["inputs"]) as? [[String: Any]]
        else { return ["output is not the expected JSON: \(json.prefix(200))"] }
        return files.compactMap { file in
            let count = { (key: String) in file[key] as? Int ?? -1 }
            let sum = count("accepted") + count("duplicate") + count("ignored") + count("rejected")
            return count("rows_read") == sum
                ? nil : "\(file["path"] ?? "?"): rows_read \(count("rows_read")) ≠ \(sum)"
        }
    }
}

/// SplitMix64: the same mutations for the same seed on every machine.
struct SeededRandom {
    var state: UInt64

    init(seed: UInt64) { state = seed &* 0x9E37_79B9_7F4A_7C15 }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A whole number in 0..<bound (bound > 0).
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(max(bound, 1))) }

    mutating func pick<T>(_ choices: [T]) -> T { choices[below(choices.count)] }
}
