import Foundation
import Testing

@testable import DayfoldCore

/// The CLI conventions of SPEC §10, through the real binary: version,
/// usage on stderr, "did you mean", the `run DROP` hint, pipeline-relative
/// paths, plain progress lines off a terminal, the warning summary and
/// `--strict`.
@Suite struct CommandLineConventionTests {
    @Test(arguments: [["--version"], ["version"]])
    func versionPrintsTheToolVersion(arguments: [String]) throws {
        let result = try DayfoldProcess.run(arguments)
        #expect(result.status == 0)
        #expect(result.stdout == "dayfold \(Manifest.toolVersion)\n")
        #expect(result.stderr.isEmpty)
    }

    @Test func bareDayfoldPrintsUsageOnStderrAndExitsTwo() throws {
        let result = try DayfoldProcess.run([])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("USAGE"))
        #expect(result.stderr.contains("COMMANDS"))
    }

    @Test(arguments: [
        (["rn"], "unknown command \"rn\"; did you mean run?"),
        (["valdiate", "x"], "unknown command \"valdiate\"; did you mean validate?"),
        (["--verison"], "unknown option --verison; did you mean --version?"),
        (["run", "--as_of", "2026-01-01T00:00:00Z"], "unknown option --as_of; did you mean --as-of?"),
        (["run", "--out", "x"], "unknown option --out; did you mean --output?"),
        (["validate", "x", "--jsn"], "unknown option --jsn; did you mean --json?"),
        (["run", "--strikt"], "unknown option --strikt; did you mean --strict?"),
    ])
    func aMistypedNameSuggestsTheNearestOne(arguments: [String], message: String) throws {
        let result = try DayfoldProcess.run(arguments)
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("dayfold: error: \(message)"), "\(result.stderr)")
    }

    @Test(arguments: [["frobnicate"], ["run", "--zzzzzz"]])
    func aNameFarFromAnyIsNotGivenASuggestion(arguments: [String]) throws {
        let result = try DayfoldProcess.run(arguments)
        #expect(result.status == 2)
        #expect(!result.stderr.contains("did you mean"), "\(result.stderr)")
    }

    @Test func runOnADropFolderSaysToUseInput() throws {
        let result = try DayfoldProcess.run(
            ["run", "SampleData/demo", "--as-of", "2026-03-31T18:00:00Z"], currentDirectory: TestPaths.repositoryRoot)
        #expect(result.status == 2)
        #expect(result.stderr.contains("SampleData/demo is a folder, not a pipeline file"), "\(result.stderr)")
        #expect(result.stderr.contains("use --input SampleData/demo"), "\(result.stderr)")
    }

    /// `input` and `output` keys name folders beside the pipeline file,
    /// whatever directory dayfold runs in: run from `root/elsewhere`,
    /// `../drop` read from the working directory would not exist.
    @Test func pipelinePathsAreRelativeToThePipelineFile() throws {
        let root = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        try TinyDrop.write(to: root.appendingPathComponent("project/drop"))
        let pipelines = root.appendingPathComponent("project/pipelines")
        let elsewhere = root.appendingPathComponent("elsewhere/deeper")
        for folder in [pipelines, elsewhere] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        try Data(#"{"name": "tiny", "input": "../drop", "output": "../out"}"#.utf8).write(
            to: pipelines.appendingPathComponent("tiny.json"))
        let result = try DayfoldProcess.run(
            ["run", "../../project/pipelines/tiny.json", "--as-of", TinyDrop.asOf], currentDirectory: elsewhere)
        #expect(result.status == 0, "\(result.stderr)")
        let manifest = root.appendingPathComponent("project/out/manifest.json")
        #expect(FileManager.default.fileExists(atPath: manifest.path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("elsewhere/out").path))
    }

    @Test func parsedPipelineKeysKeepAbsolutePathsAndJoinRelativeOnes() {
        #expect(PipelineConfig.resolve("/srv/drop", against: "Pipelines") == "/srv/drop")
        #expect(PipelineConfig.resolve("../SampleData/demo", against: "Pipelines") == "Pipelines/../SampleData/demo")
        #expect(PipelineConfig.resolve("drop", against: "") == "drop")
    }

    /// `--progress always` into a pipe (a log): whole lines, no carriage
    /// return and no escape sequence.
    @Test func progressIntoALogIsPlainLines() throws {
        let root = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let result = try DayfoldProcess.run([
            "run", TestPaths.repositoryRoot.appendingPathComponent("Pipelines/sample.json").path, "--output",
            root.appendingPathComponent("out").path, "--as-of", "2026-03-31T18:00:00Z", "--progress", "always",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("\r"))
        #expect(!result.stderr.contains("\u{1B}"))
        #expect(result.stderr.hasSuffix("\n"))
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.contains { $0.hasPrefix("dayfold: ingest 100% · 8993 rows") }, "\(result.stderr)")
        #expect(lines.filter { $0.hasPrefix("dayfold: done in") }.count == 2, "\(result.stderr)")
    }

    /// A drop without `timezones.csv`: the client's zone falls back to the
    /// task instances' (one manifest warning). The run publishes either
    /// way; the warning is summarized on stderr, and `--strict` makes it exit 3.
    @Test(arguments: [false, true])
    func aWarningIsSummarizedAndStrictMakesItExitThree(strict: Bool) throws {
        let root = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let drop = root.appendingPathComponent("drop")
        try TinyDrop.write(to: drop, timezones: false)
        let out = root.appendingPathComponent("out")
        let result = try DayfoldProcess.run(
            ["run", "--input", drop.path, "--output", out.path, "--as-of", TinyDrop.asOf] + (strict ? ["--strict"] : [])
        )
        #expect(result.status == (strict ? 3 : 0), "\(result.stderr)")
        let realOut = try #require(OutputTarget.realPath(out.path))
        #expect(result.stderr.contains("dayfold: 1 warning (see \(realOut)/manifest.json):\n"), "\(result.stderr)")
        #expect(result.stderr.contains("  - timezone fallback for user u1: "), "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("manifest.json").path))
        #expect(result.stderr.contains("--strict") == strict)
    }

    /// A health export cut off mid-tag is a failed import (the run goes on):
    /// named on stderr, and exit 3 under `--strict`.
    @Test(arguments: [false, true])
    func aFailedImportIsNamedAndStrictMakesItExitThree(strict: Bool) throws {
        let root = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let drop = TestPaths.fixtures.appendingPathComponent("Cases/health-failed-import-requested-source-failed/drop")
        let out = root.appendingPathComponent("out")
        let result = try DayfoldProcess.run(
            ["run", "--input", drop.path, "--output", out.path, "--as-of", "2026-03-10T12:00:00Z"]
                + (strict ? ["--strict"] : []))
        #expect(result.status == (strict ? 3 : 0), "\(result.stderr)")
        #expect(result.stderr.contains("dayfold: 1 failed health import (failed_imports in "), "\(result.stderr)")
        #expect(result.stderr.contains("manifest.json): u1\n"), "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("manifest.json").path))
    }

    @Test func aRunWithoutWarningsPrintsNoSummaryAndStrictExitsZero() throws {
        let root = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let drop = root.appendingPathComponent("drop")
        try TinyDrop.write(to: drop)
        let result = try DayfoldProcess.run([
            "run", "--input", drop.path, "--output", root.appendingPathComponent("out").path, "--as-of",
            TinyDrop.asOf, "--strict",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
    }
}
