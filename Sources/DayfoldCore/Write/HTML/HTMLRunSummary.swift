/// What the overview says of the run: the manifest's facts (as-of,
/// pipeline, inputs and their accounting, warnings, failed imports) and
/// the rejects counted by reason code — taken where the manifest is made,
/// so a whole run, a partitioned run and a merge say the same.
struct HTMLRunSummary: Sendable {
    var pipeline: String
    var asOf: Instant
    var inputs: [FileAccount]
    var warnings: [String]
    var failedImports: [String]
    /// Reason codes (the part of a reason before its first `:`) and their
    /// rows, most first, then by code.
    var rejectReasons: [(reason: String, rows: Int)]

    init(
        pipeline: String, asOf: Instant, inputs: [FileAccount], warnings: [String], failedImports: [String],
        rejects: [RejectedRecord]
    ) {
        self.pipeline = pipeline
        self.asOf = asOf
        self.inputs = inputs
        self.warnings = warnings
        self.failedImports = failedImports
        rejectReasons = Self.reasons(rejects)
    }

    /// The code of each reject's reason, counted. Only the code: what
    /// follows its `:` may quote the input (a unit, a type name).
    static func reasons(_ rejects: [RejectedRecord]) -> [(reason: String, rows: Int)] {
        var counts: [String: Int] = [:]
        for reject in rejects {
            let code = reject.reason.split(separator: ":", maxSplits: 1).first.map(String.init) ?? reject.reason
            counts[code, default: 0] += 1
        }
        return counts.map { (reason: $0.key, rows: $0.value) }.sorted {
            $0.rows != $1.rows ? $0.rows > $1.rows : bytesLess($0.reason, $1.reason)
        }
    }
}
