import Foundation

/// A small drop written file by file into a temporary folder (removed by
/// `remove()`), run through the real binary: for tests whose inputs hold
/// bytes a fixture file should not (NUL, ESC), or are built from a rule.
struct HandMadeDrop {
    let root: URL
    var drop: URL { root.appendingPathComponent("drop") }
    var output: URL { root.appendingPathComponent("out") }

    init(_ files: [String: String], name: String = #function) throws {
        root = try TestPaths.temporaryDirectory(name)
        for (path, text) in files {
            let url = drop.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
    }

    func remove() { try? FileManager.default.removeItem(at: root) }

    /// `dayfold run` into `output` (debug tables too: every snapshot's rows as CSV).
    func run(asOf: String, _ extra: [String] = []) throws -> DayfoldProcess {
        let pipeline = root.appendingPathComponent("pipeline.json")
        try Data("{\"max_reject_fraction\": 1.0}".utf8).write(to: pipeline)
        return try DayfoldProcess.run(
            [
                "run", pipeline.path, "--input", drop.path, "--output", output.path, "--as-of", asOf,
                "--debug-tables",
            ] + extra)
    }

    /// `dayfold validate --json`: its stderr, and every reject as `file:line reason`.
    func validate(asOf: String) throws -> (process: DayfoldProcess, rejects: [String]) {
        let process = try DayfoldProcess.run(["validate", drop.path, "--as-of", asOf, "--json"])
        let object = try JSONSerialization.jsonObject(with: Data(process.stdout.utf8)) as? [String: Any]
        let rejects = (object?["rejects"] as? [[String: Any]] ?? []).map { reject in
            "\(reject["file"] as? String ?? ""):\((reject["line"] as? NSNumber)?.intValue ?? -1) "
                + "\(reject["reason"] as? String ?? "")"
        }
        return (process, rejects)
    }

    /// Every file the run published that is text (reports, debug tables,
    /// manifest; rejects.csv only with `rejects`), by path relative to the output.
    func publishedText(rejects: Bool = false) throws -> [(path: String, bytes: [UInt8])] {
        let paths = FileManager.default.subpaths(atPath: output.path) ?? []
        return try paths.sorted().filter { path in
            (path.hasSuffix(".csv") || path.hasSuffix(".json")) && (rejects || !path.hasPrefix("rejects/"))
        }.map { path in (path, Array(try Data(contentsOf: output.appendingPathComponent(path)))) }
    }
}
