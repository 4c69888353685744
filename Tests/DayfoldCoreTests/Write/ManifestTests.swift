import Foundation
import Testing

@testable import DayfoldCore

/// manifest.json (SPEC §7): inputs with SHA-256 and accounting, outputs with
/// rows and SHA-256, the pipeline, as-of, warnings and timings.
@Suite struct ManifestTests {
    @Test func manifestDescribesEveryInputAndOutput() throws {
        let root = TestPaths.fixtures.appendingPathComponent("Conformance")
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("out")
        let result = try DayfoldProcess.run([
            "run", root.appendingPathComponent("pipeline.json").path, "--input",
            root.appendingPathComponent("drop").path,
            "--output", out.path, "--as-of", "2026-03-29T09:30:00Z",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let data = try Data(contentsOf: out.appendingPathComponent("manifest.json"))
        let manifest = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(manifest["pipeline"] as? String == "holdout-seed-4242")
        #expect(manifest["as_of"] as? String == "2026-03-29T09:30:00Z")
        #expect((manifest["config_digest"] as? String)?.count == 64)
        #expect(manifest["tool_version"] as? String == Manifest.toolVersion)
        let inputs = try #require(manifest["inputs"] as? [[String: Any]])
        #expect(inputs.count == 28)
        for input in inputs {
            let path = try #require(input["path"] as? String)
            let expected = try SHA256Hasher.hex(file: root.appendingPathComponent("drop/\(path)").path)
            #expect(input["sha256"] as? String == expected, "\(path)")
        }
        let journal = try #require(inputs.first { $0["path"] as? String == "journal/journal-002-late.csv" })
        #expect(journal["unknown_columns"] as? [String] == ["app_build"])
        let failed = try #require(inputs.first { ($0["path"] as? String)?.hasSuffix("export.xml.zst") == true })
        #expect((failed["failed"] as? String)?.hasPrefix("zstd") == true)
        #expect(manifest["failed_imports"] as? [String] == ["1428dfad-70ce-4993-8498-d7d67c213c12"])
        let outputs = try #require(manifest["outputs"] as? [[String: Any]])
        #expect(outputs.count == 11)
        // Output digests are taken as the files are written: they must be the
        // digests of the files as published.
        for output in outputs {
            let path = try #require(output["path"] as? String)
            let expected = try SHA256Hasher.hex(file: out.appendingPathComponent(path).path)
            #expect(output["sha256"] as? String == expected, "\(path)")
        }
        let warnings = try #require(manifest["warnings"] as? [String])
        #expect(
            warnings.contains { $0.contains("0620f087-7e5f-4381-83fa-ac572f564652: latest_task_instance Asia/Kolkata") }
        )
        #expect(warnings.contains { $0.contains("802ae68b-cd8c-47d8-ac1d-0bf8d49aa335: instant_offset") })
        #expect((manifest["timings_seconds"] as? [String: Any])?.keys.contains("ingest") == true)
        // SPEC §11.3: a drop without push/ gets no push table, and the manifest says so.
        #expect(manifest["push_outputs"] as? String == "not written: the drop has no push/ folder")
        #expect(!outputs.contains { ($0["path"] as? String)?.contains("push") == true })
    }
}
