import DayfoldGenerate
import Foundation
import Testing

@testable import DayfoldCore

/// SIGKILL `dayfold run` at several points: the published directory is
/// always either a complete run (every file the manifest lists, with its
/// SHA-256, and nothing else) or absent — never partial — and the next run
/// succeeds.
@Suite(.serialized) struct AtomicPublishTests {
    /// Problems with a published directory; empty when it is one complete run.
    static func incompleteness(_ directory: URL) throws -> [String] {
        let manifestURL = directory.appendingPathComponent("manifest.json")
        guard let data = FileManager.default.contents(atPath: manifestURL.path) else { return ["no manifest.json"] }
        let manifest = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let outputs = try #require(manifest["outputs"] as? [[String: Any]])
        var problems: [String] = []
        var listed: Set<String> = ["manifest.json"]
        for output in outputs {
            let path = try #require(output["path"] as? String)
            listed.insert(path)
            let digest = try SHA256Hasher.hex(file: directory.appendingPathComponent(path).path)
            if digest != output["sha256"] as? String { problems.append("\(path): SHA-256 differs from the manifest") }
        }
        let enumerator = FileManager.default.enumerator(atPath: directory.path)
        while let relative = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(
                atPath: directory.appendingPathComponent(relative).path, isDirectory: &isDirectory)
            if !isDirectory.boolValue && !listed.contains(relative) {
                problems.append("\(relative): not in the manifest")
            }
        }
        return problems
    }

    @Test func killedRunsLeaveThePreviousOutputsWholeOrNothing() throws {
        let root = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let drop = root.appendingPathComponent("drop")
        _ = try DropGenerator.generate(DropGeneratorOptions(clients: 100, days: 60, seed: 3, output: drop.path))
        let output = root.appendingPathComponent("out")
        let arguments = ["run", "--input", drop.path, "--output", output.path, "--as-of", "2026-04-01T00:00:00Z"]

        let started = Date()
        let first = try DayfoldProcess.run(arguments)
        let duration = Date().timeIntervalSince(started)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(try Self.incompleteness(output).isEmpty)

        for fraction in [0.05, 0.2, 0.4, 0.6, 0.8, 0.9, 0.97] {
            let process = Process()
            process.executableURL = TestPaths.binary
            process.arguments = arguments
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            Thread.sleep(forTimeInterval: duration * fraction)
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            if FileManager.default.fileExists(atPath: output.path) {
                let problems = try Self.incompleteness(output)
                #expect(problems.isEmpty, "killed at \(fraction) of a run: \(problems)")
            }
        }
        let last = try DayfoldProcess.run(arguments)
        #expect(last.status == 0, "\(last.stderr)")
        #expect(try Self.incompleteness(output).isEmpty)
        // Nothing of the killed runs is left beside the output either.
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: root.path).filter {
            $0.hasPrefix(".dayfold-out.") || $0.hasPrefix(".out.")
        }
        #expect(leftovers.isEmpty, "left behind: \(leftovers)")
    }
}
