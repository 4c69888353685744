import Foundation

/// `manifest.json` (SPEC §7): tool version, pipeline, as-of, every input
/// file with its SHA-256 and accounting, every output with rows and SHA-256,
/// warnings and per-stage timings. Keys are written in a fixed order.
public struct Manifest {
    public static let toolVersion = "0.1.0"

    public var pipelineName: String
    public var configDigest: String
    public var asOf: Instant
    public var inputs: [FileAccount]
    public var outputs: [(path: String, rows: Int, sha256: String)]
    public var warnings: [String]
    public var failedImports: [String]
    public var timings: [(String, Double)]
    /// Files of the drop that are not read, with the reason (SPEC §10).
    public var unrecognizedFiles: [DropLayout.UnrecognizedFile] = []
    /// Whether the drop has a `push/` folder, so the push tables were
    /// written (SPEC §11.3: without one they are not, and the manifest says so).
    public var hasPushFolder = false
    /// A run of shard K of N (SPEC §13): its manifest says so.
    public var shard: (index: Int, count: Int)?
    /// How a run with `--state` used it (SPEC §12); nil without one.
    public var stateUse: StateUse?

    /// The manifest's `mode`, `reason` and `recomputed_users`, and which
    /// inputs' digests came from the state rather than a reading.
    public struct StateUse: Sendable, Equatable {
        public enum Mode: String, Sendable {
            case full, incremental
        }
        public var mode: Mode
        public var reason: String
        public var recomputedUsers: Int
        public var digestsFromState: Set<String>

        public init(mode: Mode, reason: String, recomputedUsers: Int, digestsFromState: Set<String>) {
            self.mode = mode
            self.reason = reason
            self.recomputedUsers = recomputedUsers
            self.digestsFromState = digestsFromState
        }
    }

    public func json() -> String {
        var lines: [String] = ["{"]
        lines.append("  \"tool\": \"dayfold\",")
        lines.append("  \"tool_version\": \(jsonString(Manifest.toolVersion)),")
        lines.append("  \"pipeline\": \(jsonString(pipelineName)),")
        lines.append("  \"config_digest\": \(jsonString(configDigest)),")
        lines.append("  \"as_of\": \(jsonString(asOf.description)),")
        let inputLines = inputs.map { account -> String in
            var fields = [
                "\"path\": \(jsonString(account.path))", "\"kind\": \(jsonString(account.kind))",
                "\"sha256\": \(jsonString(account.sha256))", "\"rows_read\": \(account.rowsRead)",
                "\"accepted\": \(account.accepted)", "\"duplicate\": \(account.duplicate)",
                "\"ignored\": \(account.ignored)", "\"rejected\": \(account.rejected)",
            ]
            if !account.unknownColumns.isEmpty {
                fields.append(
                    "\"unknown_columns\": [\(account.unknownColumns.map { jsonString(Manifest.echoed($0)) }.joined(separator: ", "))]"
                )
            }
            if stateUse?.digestsFromState.contains(account.path) == true {
                fields.append("\"sha256_from\": \"state\"")
            }
            if let failed = account.failed { fields.append("\"failed\": \(jsonString(failed))") }
            if let skipped = account.skipped { fields.append("\"skipped\": \(jsonString(skipped))") }
            return "    {" + fields.joined(separator: ", ") + "}"
        }
        lines.append("  \"inputs\": [\n" + inputLines.joined(separator: ",\n") + "\n  ],")
        let outputLines = outputs.map {
            "    {\"path\": \(jsonString($0.path)), \"rows\": \($0.rows), \"sha256\": \(jsonString($0.sha256))}"
        }
        lines.append("  \"outputs\": [\n" + outputLines.joined(separator: ",\n") + "\n  ],")
        lines.append("  \"failed_imports\": [\(failedImports.map(jsonString).joined(separator: ", "))],")
        lines.append("  \"warnings\": [\(warnings.map(jsonString).joined(separator: ", "))],")
        let unrecognizedLines = unrecognizedFiles.map {
            "    {\"path\": \(jsonString($0.path)), \"reason\": \(jsonString($0.reason))}"
        }
        lines.append(
            "  \"unrecognized_files\": ["
                + (unrecognizedLines.isEmpty ? "" : "\n" + unrecognizedLines.joined(separator: ",\n") + "\n  ") + "],")
        lines.append(
            "  \"push_outputs\": "
                + jsonString(hasPushFolder ? "written" : "not written: the drop has no push/ folder") + ",")
        if let shard {
            lines.append("  \"shard\": {\"index\": \(shard.index), \"count\": \(shard.count)},")
        }
        if let stateUse {
            lines.append("  \"mode\": \(jsonString(stateUse.mode.rawValue)),")
            lines.append("  \"reason\": \(jsonString(stateUse.reason)),")
            lines.append("  \"recomputed_users\": \(stateUse.recomputedUsers),")
        }
        let timingLines = timings.map { "\(jsonString($0.0)): \(String(format: "%.3f", $0.1))" }
        lines.append("  \"timings_seconds\": {\(timingLines.joined(separator: ", "))}")
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The longest name echoed from an input, in bytes (SPEC §10).
    public static let echoLimit = 64

    /// A name taken from an input (an unknown column, an unread file) as
    /// the manifest may echo it: cut to `echoLimit` bytes at a character
    /// boundary, so a file's first line cannot be copied out through it.
    /// Control characters are escaped by `jsonString` as the manifest is
    /// written (`\u001B`), never written raw.
    public static func echoed(_ name: String) -> String {
        guard name.utf8.count > echoLimit else { return name }
        var cut = ""
        var bytes = 0
        for scalar in name.unicodeScalars {
            let width = UTF8.width(scalar)
            guard bytes + width <= echoLimit else { break }
            cut.unicodeScalars.append(scalar)
            bytes += width
        }
        return cut
    }
}
