import Foundation
import Testing

/// Runs every hand-worked case in Fixtures/Cases (one rule each, expected
/// rows worked out by hand from SPEC.md) through the real binary.
@Suite struct SpecCaseTests {
    static let root = TestPaths.fixtures.appendingPathComponent("Cases")

    static var caseNames: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        return names.filter {
            FileManager.default.fileExists(atPath: root.appendingPathComponent("\($0)/case.json").path)
        }.sorted()
    }

    struct CaseFile {
        var asOf: String
        var pipeline: Data
        var exitCode: Int32
    }

    static func load(_ name: String) throws -> CaseFile {
        let data = try Data(contentsOf: root.appendingPathComponent("\(name)/case.json"))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let asOf = try #require(object["as_of"] as? String)
        let pipeline = try JSONSerialization.data(
            withJSONObject: object["pipeline"] ?? [String: Any](), options: [.sortedKeys])
        return CaseFile(
            asOf: asOf, pipeline: pipeline, exitCode: Int32((object["exit_code"] as? NSNumber)?.intValue ?? 0))
    }

    @Test(arguments: caseNames)
    func caseProducesTheHandWorkedRows(name: String) throws {
        try check(name, extraArguments: [])
    }

    /// The same cases under a memory budget so small that the drop is split
    /// into many partitions: the outputs must not change.
    @Test(arguments: caseNames)
    func casePartitionedProducesTheSameRows(name: String) throws {
        try check(name, extraArguments: ["--max-memory", "1K"])
    }

    func check(_ name: String, extraArguments: [String]) throws {
        let spec = try Self.load(name)
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let pipeline = directory.appendingPathComponent("pipeline.json")
        try spec.pipeline.write(to: pipeline)
        let caseRoot = Self.root.appendingPathComponent(name)
        let output = directory.appendingPathComponent("out")
        let run = try DayfoldProcess.run(
            [
                "run", pipeline.path, "--input", caseRoot.appendingPathComponent("drop").path, "--output", output.path,
                "--as-of", spec.asOf,
            ] + extraArguments)
        #expect(run.status == spec.exitCode, "exit \(run.status), stderr: \(run.stderr)")
        let expected = caseRoot.appendingPathComponent("expected")
        if let needle = try? String(contentsOf: expected.appendingPathComponent("stderr_contains.txt"), encoding: .utf8)
        {
            let trimmed = needle.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(run.stderr.contains(trimmed), "stderr lacks \(trimmed): \(run.stderr)")
        }
        var problems: [String] = []
        for (report, relative) in [
            ("coach_daily_summary", "reports/coach_daily_summary.csv"), ("streaks", "reports/streaks.csv"),
            ("risk_signals", "reports/risk_signals.csv"), ("progress_ranges", "reports/progress_ranges.csv"),
            ("rejects", "rejects/rejects.csv"),
        ] {
            let want = expected.appendingPathComponent(relative)
            guard FileManager.default.fileExists(atPath: want.path) else { continue }
            problems += try ReportComparison.differences(
                report: report, expected: want, actual: output.appendingPathComponent(relative))
        }
        let accounting = expected.appendingPathComponent("accounting.json")
        if FileManager.default.fileExists(atPath: accounting.path) {
            let validate = try DayfoldProcess.run([
                "validate", caseRoot.appendingPathComponent("drop").path, "--as-of", spec.asOf, "--json", "--pipeline",
                pipeline.path,
            ])
            problems += try ReportComparison.accountingDifferences(expected: accounting, validateJSON: validate.stdout)
        }
        #expect(problems.isEmpty, "\(name):\n\(problems.joined(separator: "\n"))")
    }
}
