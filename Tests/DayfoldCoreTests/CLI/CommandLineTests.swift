import Foundation
import Testing

/// The real binary, as a user meets it: help, usage errors, exit codes.
@Suite struct CommandLineTests {
    @Test func helpNamesEveryCommand() throws {
        let result = try DayfoldProcess.run(["--help"])
        #expect(result.status == 0)
        for command in ["run", "validate", "inspect"] { #expect(result.stdout.contains(command)) }
    }

    @Test(arguments: [
        ("run", ["--input", "--output", "--as-of", "--max-memory", "--progress", "--debug-tables"]),
        ("validate", ["--as-of", "--json", "--pipeline"]), ("inspect", ["--rows"]),
    ])
    func commandHelpListsEveryFlagAndAnExample(command: String, flags: [String]) throws {
        let result = try DayfoldProcess.run([command, "--help"])
        #expect(result.status == 0)
        for flag in flags { #expect(result.stdout.contains(flag), "\(command) --help lacks \(flag)") }
        #expect(result.stdout.contains("EXAMPLE"))
    }

    @Test(arguments: [
        ["run", "--bogus"], ["run", "--as-of"], ["validate"], ["frobnicate"],
        ["run", "--input", "x", "--as-of", "yesterday"],
        ["validate", "x", "--json=yes"],
    ])
    func usageErrorsExitTwoWithOneLine(arguments: [String]) throws {
        let result = try DayfoldProcess.run(arguments)
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("dayfold: error: "))
        #expect(result.stdout.isEmpty)
    }

    @Test func unknownPipelineKeyIsNamed() throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let pipeline = directory.appendingPathComponent("p.json")
        try Data(#"{"name":"x","streak_treshold":0.7}"#.utf8).write(to: pipeline)
        let result = try DayfoldProcess.run([
            "run", pipeline.path, "--input", directory.path, "--as-of", "2026-01-01T00:00:00Z",
        ])
        #expect(result.status == 2)
        #expect(result.stderr.contains("unknown key \"streak_treshold\""))
    }

    @Test func missingDropIsAUsageError() throws {
        let result = try DayfoldProcess.run(["validate", "/nonexistent/drop", "--as-of", "2026-01-01T00:00:00Z"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("/nonexistent/drop"))
    }
}

/// Progress goes to stderr only when asked for or on a terminal.
@Suite struct ProgressOutputTests {
    static let arguments = [
        "run", TestPaths.repositoryRoot.appendingPathComponent("Pipelines/sample.json").path, "--as-of",
        "2026-03-31T18:00:00Z",
    ]

    func run(_ extra: [String]) throws -> DayfoldProcess {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        return try DayfoldProcess.run(
            Self.arguments + ["--output", directory.appendingPathComponent("o").path] + extra)
    }

    /// Whether stderr holds a progress line (the sample's one warning is
    /// summarized there too, SPEC §10, so stderr is not empty).
    static func hasProgress(_ stderr: String) -> Bool {
        stderr.contains("dayfold: ingest") || stderr.contains("done in")
    }

    @Test func notATerminalMeansNoProgress() throws {
        let result = try run([])
        #expect(result.status == 0)
        #expect(!Self.hasProgress(result.stderr), "\(result.stderr)")
    }

    @Test func alwaysShowsStagesRowsAndRate() throws {
        let result = try run(["--progress", "always"])
        #expect(result.status == 0)
        for word in ["ingest", "rows", "MB/s", "compute", "write", "done in"] {
            #expect(result.stderr.contains(word), "progress lacks \(word): \(result.stderr)")
        }
    }

    @Test func neverIsSilentAndABadModeIsAUsageError() throws {
        #expect(!Self.hasProgress(try run(["--progress", "never"]).stderr))
        #expect(try run(["--progress", "sometimes"]).status == 2)
    }
}
