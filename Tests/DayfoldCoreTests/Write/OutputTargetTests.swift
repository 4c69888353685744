import Foundation
import Testing

@testable import DayfoldCore

/// SPEC §10: `--output` must be new, empty or a dayfold publish holding
/// nothing else. Every refused case exits 2 before reading the drop, and
/// not one byte under the test's folder (the drop, the user's files, the
/// output) changes.
@Suite struct OutputTargetTests {
    /// A refused `--output`: how to set it up inside `root` (which holds
    /// the drop at `root/drop`), the argument, and a phrase of the reason.
    struct Refusal: CustomTestStringConvertible, Sendable {
        var name: String
        var output: String
        var reason: String
        var workingDirectory = ""
        var setUp: @Sendable (URL) throws -> Void = { _ in }
        var testDescription: String { name }
    }

    static let refusals: [Refusal] = [
        Refusal(name: "a regular file", output: "notes.txt", reason: "a file, not a folder") { root in
            try Data("my notes\n".utf8).write(to: root.appendingPathComponent("notes.txt"))
        },
        Refusal(name: "a user's folder", output: "user", reason: "not empty and not a dayfold output") { root in
            try makeUserFolder(root.appendingPathComponent("user"))
        },
        Refusal(
            name: "a manifest of another tool", output: "other", reason: "not empty and not a dayfold output"
        ) { root in
            let folder = root.appendingPathComponent("other")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(#"{"tool": "otherfold", "outputs": []}"#.utf8).write(
                to: folder.appendingPathComponent("manifest.json"))
        },
        Refusal(
            name: "a dayfold output holding a user's entries", output: "out",
            reason: "also holds 2 other entries (important.txt, mine)"
        ) { root in
            let first = try DayfoldProcess.run([
                "run", "--input", root.appendingPathComponent("drop").path, "--output",
                root.appendingPathComponent("out").path, "--as-of", TinyDrop.asOf,
            ])
            guard first.status == 0 else { throw CocoaError(.fileWriteUnknown) }
            try Data("keep me\n".utf8).write(to: root.appendingPathComponent("out/important.txt"))
            try makeUserFolder(root.appendingPathComponent("out/mine"))
        },
        Refusal(name: "the drop", output: "drop", reason: "this is the input drop"),
        Refusal(name: "the drop with a trailing slash", output: "drop/", reason: "this is the input drop"),
        Refusal(name: "a folder inside the drop", output: "drop/tasks", reason: "inside the input drop"),
        Refusal(name: "a new folder inside the drop", output: "drop/out", reason: "inside the input drop"),
        Refusal(name: "the folder holding the drop", output: ".", reason: "holds the input drop"),
        Refusal(
            name: "the folder holding the drop, through ..", output: "drop/tasks/../..",
            reason: "holds the input drop"),
        Refusal(name: "a link to the drop", output: "link", reason: "this is the input drop") { root in
            try FileManager.default.createSymbolicLink(
                at: root.appendingPathComponent("link"), withDestinationURL: root.appendingPathComponent("drop"))
        },
        Refusal(name: "a path through a link into the drop", output: "link/tasks", reason: "inside the input drop") {
            root in
            try FileManager.default.createSymbolicLink(
                at: root.appendingPathComponent("link"), withDestinationURL: root.appendingPathComponent("drop"))
        },
        Refusal(
            name: "the working directory, empty", output: ".", reason: "the working directory",
            workingDirectory: "empty"
        ) { root in
            try FileManager.default.createDirectory(
                at: root.appendingPathComponent("empty"), withIntermediateDirectories: true)
        },
        Refusal(name: "the root folder", output: "/", reason: "the root folder /"),
        Refusal(name: "a path whose parent does not exist", output: "missing/out", reason: "does not exist"),
    ]

    static func makeUserFolder(_ folder: URL) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("a user's file\n".utf8).write(to: folder.appendingPathComponent("important.txt"))
    }

    @Test(arguments: refusals)
    func refusedOutputExitsTwoAndChangesNothing(_ refusal: Refusal) throws {
        let root = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        try TinyDrop.write(to: root.appendingPathComponent("drop"))
        try refusal.setUp(root)
        let before = try TreeSnapshot.of(root)
        let result = try DayfoldProcess.run(
            [
                "run", "--input", root.appendingPathComponent("drop").path, "--output", refusal.output, "--as-of",
                TinyDrop.asOf,
            ],
            currentDirectory: root.appendingPathComponent(refusal.workingDirectory))
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains(refusal.reason), "\(result.stderr)")
        #expect(result.stderr.contains("\nfix: "), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        let after = try TreeSnapshot.of(root)
        #expect(after == before, "changed: \(Set(after.keys).symmetricDifference(before.keys).sorted())")
    }

    /// The report of issue 18: this command deleted the sample drop.
    @Test func sampleDataAsOutputIsRefusedAndTheDropIsKept() throws {
        let root = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.copyItem(
            at: TestPaths.repositoryRoot.appendingPathComponent("SampleData"),
            to: root.appendingPathComponent("SampleData"))
        let before = try TreeSnapshot.of(root)
        let result = try DayfoldProcess.run(
            [
                "run", TestPaths.repositoryRoot.appendingPathComponent("Pipelines/sample.json").path, "--input",
                "SampleData/demo", "--output", "SampleData", "--as-of", "2026-03-31T18:00:00Z",
            ], currentDirectory: root)
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("holds the input drop"), "\(result.stderr)")
        #expect(try TreeSnapshot.of(root) == before)
        #expect(before.count > 20)
    }

    /// New, empty and previous-publish outputs are accepted, and a rerun
    /// replaces the previous publish.
    @Test func newEmptyAndPreviousOutputsArePublished() throws {
        let root = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let drop = root.appendingPathComponent("drop")
        try TinyDrop.write(to: drop)
        let empty = root.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        for output in ["new", "empty", "new", "empty"] {
            let result = try DayfoldProcess.run(
                ["run", "--input", drop.path, "--output", output, "--as-of", TinyDrop.asOf, "--debug-tables"],
                currentDirectory: root)
            #expect(result.status == 0, "\(output): \(result.stderr)")
            let entries = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(output).path)
            #expect(Set(entries) == ["debug", "manifest.json", "rejects", "reports", "snapshots"])
        }
        // No temporaries are left beside the outputs.
        let names = try FileManager.default.contentsOfDirectory(atPath: root.path)
        #expect(Set(names) == ["drop", "empty", "new"])
    }

    /// The pid of a process that has exited (so no live run owns a folder named after it).
    static func deadPid() throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        try process.run()
        process.waitUntilExit()
        return process.processIdentifier
    }

    @Test func staleTemporariesOfDeadRunsAreRemovedUnlessTheyHoldForeignFiles() throws {
        let root = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let drop = root.appendingPathComponent("drop")
        try TinyDrop.write(to: drop)
        let dead = try Self.deadPid()
        let manager = FileManager.default
        func temporary(_ kind: String, _ pid: Int32, entries: [String]) throws -> URL {
            let folder = root.appendingPathComponent(".dayfold-out.\(kind)-\(pid)")
            for entry in entries {
                let url = folder.appendingPathComponent(entry)
                if entry.hasSuffix("/") {
                    try manager.createDirectory(at: url, withIntermediateDirectories: true)
                } else {
                    try manager.createDirectory(at: folder, withIntermediateDirectories: true)
                    try Data("x\n".utf8).write(to: url)
                }
            }
            return folder
        }
        let staleStaging = try temporary("tmp", dead, entries: ["reports/", "snapshots/", ".spill/drops/"])
        // The output exists, so a stale "old" folder is removed, not put back.
        let staleOld = try temporary("old", dead &+ 100_000, entries: ["reports/", "manifest.json"])
        let foreign = try temporary("tmp", dead &+ 200_000, entries: ["reports/", "mine.txt"])
        let live = try temporary("tmp", getpid(), entries: ["reports/"])
        try manager.createDirectory(at: root.appendingPathComponent("out"), withIntermediateDirectories: true)
        let foreignBefore = try TreeSnapshot.of(foreign)

        let result = try DayfoldProcess.run([
            "run", "--input", drop.path, "--output", root.appendingPathComponent("out").path, "--as-of",
            TinyDrop.asOf,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!manager.fileExists(atPath: staleStaging.path))
        #expect(!manager.fileExists(atPath: staleOld.path))
        #expect(try TreeSnapshot.of(foreign) == foreignBefore, "a folder holding a user's file is kept as it was")
        #expect(manager.fileExists(atPath: live.path), "a live run's temporary is left to it")
    }

    /// A run killed between its two renames left the previous outputs in
    /// `.dayfold-out.old-<pid>` and no `out`: the next run puts them back
    /// before it checks the output, so it sees (and replaces) a previous publish.
    @Test func previousOutputsSetAsideByAKilledRunAreRecovered() throws {
        let root = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let drop = root.appendingPathComponent("drop")
        try TinyDrop.write(to: drop)
        let out = root.appendingPathComponent("out")
        let arguments = ["run", "--input", drop.path, "--output", out.path, "--as-of", TinyDrop.asOf]
        #expect(try DayfoldProcess.run(arguments).status == 0)
        let aside = root.appendingPathComponent(".dayfold-out.old-\(try Self.deadPid())")
        try FileManager.default.moveItem(at: out, to: aside)
        let target = try OutputTarget(output: out.path, drop: drop.path)
        #expect(target.state == .previousPublish)
        #expect(!FileManager.default.fileExists(atPath: aside.path))
        #expect(try DayfoldProcess.run(arguments).status == 0)
    }

    /// The error names the folder that is not writable (the parent the
    /// temporaries go in), not the output inside it. Tests run as root,
    /// where permissions do not deny: the binary is then run as `nobody`
    /// through setpriv, so the kernel's own EACCES is what is reported.
    @Test func aReadOnlyParentIsNamedInThePermissionError() throws {
        let root = try TestPaths.temporaryDirectory()
        defer {
            chmod(root.path, 0o755)
            try? FileManager.default.removeItem(at: root)
        }
        let drop = root.appendingPathComponent("drop")
        try TinyDrop.write(to: drop)
        let parent = root.appendingPathComponent("locked")
        try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        chmod(root.path, 0o755)
        chmod(parent.path, 0o555)
        defer { chmod(parent.path, 0o755) }
        var launcher: [String] = []
        if getuid() == 0 {
            let setpriv = "/usr/bin/setpriv"
            guard FileManager.default.isExecutableFile(atPath: setpriv) else {
                return  // root without setpriv: permissions cannot deny here, nothing honest to check
            }
            launcher = [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups"]
        }
        let before = try TreeSnapshot.of(root)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: launcher.first ?? TestPaths.binary.path)
        process.arguments =
            Array(launcher.dropFirst()) + (launcher.isEmpty ? [] : [TestPaths.binary.path]) + [
                "run", "--input", drop.path, "--output", parent.appendingPathComponent("out").path, "--as-of",
                TinyDrop.asOf,
            ]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let realParent = try #require(OutputTarget.realPath(parent.path))
        #expect(process.terminationStatus == 1, "\(stderr)")
        #expect(stderr.contains("cannot write in \(realParent): Permission denied"), "\(stderr)")
        #expect(try TreeSnapshot.of(root) == before)
    }

    @Test func foreignEntriesAreThoseDayfoldDoesNotWrite() {
        #expect(
            OutputTarget.foreignEntries(["reports", "manifest.json", "b.txt", "A", ".spill"]) == [
                ".spill", "A", "b.txt",
            ])
        #expect(OutputTarget.foreignEntries(["snapshots", ".spill"], allowing: [".spill"]).isEmpty)
    }

    /// A sharded job keeps its shards and attempts in the output's work
    /// area: a run there may publish over the output that holds it (the
    /// publish retires the work area), while a drop anywhere else inside the
    /// output is still refused and left as it was.
    @Test func aDropInTheWorkAreaMayPublishOverItsOutput() throws {
        let root = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let output = root.appendingPathComponent("out")
        let inWorkArea = output.appendingPathComponent(".dayfold-attempts/drop")
        try TinyDrop.write(to: inWorkArea)
        try Data("{}".utf8).write(to: output.appendingPathComponent(".dayfold-attempts/dayfold-job.json"))
        let accepted = try DayfoldProcess.run(
            ["run", "--input", inWorkArea.path, "--output", output.path, "--as-of", TinyDrop.asOf],
            currentDirectory: root)
        #expect(accepted.status == 0, "\(accepted.stderr)")
        let entries = try FileManager.default.contentsOfDirectory(atPath: output.path)
        #expect(Set(entries) == ["manifest.json", "rejects", "reports", "snapshots"])

        // Without the job's marker a folder holding only the area is not dayfold's.
        let unmarked = root.appendingPathComponent("unmarked")
        try TinyDrop.write(to: unmarked.appendingPathComponent(".dayfold-attempts/drop"))
        let notOurs = try DayfoldProcess.run(
            [
                "run", "--input", unmarked.appendingPathComponent(".dayfold-attempts/drop").path, "--output",
                unmarked.path,
                "--as-of", TinyDrop.asOf,
            ], currentDirectory: root)
        #expect(notOurs.status == 2, "\(notOurs.stderr)")

        let elsewhere = output.appendingPathComponent("reports/drop")
        try TinyDrop.write(to: elsewhere)
        let before = try TreeSnapshot.of(root)
        let refused = try DayfoldProcess.run(
            ["run", "--input", elsewhere.path, "--output", output.path, "--as-of", TinyDrop.asOf],
            currentDirectory: root)
        #expect(refused.status == 2, "\(refused.stderr)")
        #expect(refused.stderr.contains("holds the input drop"), "\(refused.stderr)")
        #expect(try TreeSnapshot.of(root) == before)
    }

    @Test func insideComparesWholeFolderNames() {
        #expect(OutputTarget.isInside("/a/b/c", "/a/b"))
        #expect(!OutputTarget.isInside("/a/bc", "/a/b"))
        #expect(!OutputTarget.isInside("/a/b", "/a/b"))
        #expect(OutputTarget.isInside("/a", "/"))
    }
}
