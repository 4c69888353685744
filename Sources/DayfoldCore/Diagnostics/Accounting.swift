/// What became of one input row (SPEC §1.6): exactly one of these.
public enum RowFate: Sendable {
    case accepted, duplicate, ignored, rejected
}

/// Per-file accounting: `rowsRead = accepted + duplicate + ignored + rejected`.
public struct FileAccount: Sendable, Codable {
    public var path: String
    public var kind: String
    public var sha256: String = ""
    /// Bytes ingest read from the file (a `.zst` file's compressed bytes);
    /// nil for files not read as CSV. Checked against the size `FileDigests` hashed.
    public var bytesRead: Int?
    public var rowsRead = 0
    public var accepted = 0
    public var duplicate = 0
    public var ignored = 0
    public var rejected = 0
    public var unknownColumns: [String] = []
    /// The first column the kind expects that the file's header lacks
    /// (SPEC §10: one stderr line says so).
    public var missingHeaderColumn: String?
    /// Unknown columns that look like a misspelt expected one (warnings).
    public var columnHints: [ColumnHint] = []
    /// Set when an Apple Health file could not be read (a failed import).
    public var failed: String?
    /// Set when a file was skipped as not being what its folder holds.
    public var skipped: String?

    public init(path: String, kind: String) {
        self.path = path
        self.kind = kind
    }

    public var balances: Bool { rowsRead == accepted + duplicate + ignored + rejected }

    mutating func count(_ fate: RowFate) {
        switch fate {
        case .accepted: accepted += 1
        case .duplicate: duplicate += 1
        case .ignored: ignored += 1
        case .rejected: rejected += 1
        }
    }
}

/// A row that was rejected, as written to `rejects/rejects.csv`.
public struct RejectedRecord: Sendable, Codable {
    public var file: String
    public var line: Int
    public var kind: String
    public var reason: String
    public var raw: String
}

/// An unknown column whose name is within edit distance 2 of a column the
/// kind expects and the header lacks (SPEC §10: "did you mean timezone?").
public struct ColumnHint: Sendable, Equatable, Codable {
    public var unknown: String
    public var expected: String

    /// The closest of `candidates` to `name` (ignoring ASCII case), at most
    /// 2 edits away and fewer edits than the candidate has characters (so
    /// `ts` is not taken for `id`); ties go to the first candidate.
    static func nearest(to name: String, among candidates: [String]) -> String? {
        let target = Array(name.lowercased().unicodeScalars)
        var best: (name: String, distance: Int)?
        for candidate in candidates {
            let scalars = Array(candidate.lowercased().unicodeScalars)
            let limit = min(2, scalars.count - 1)
            guard abs(scalars.count - target.count) <= limit else { continue }
            let distance = EditDistance.between(target, scalars)
            if distance <= limit && distance < (best?.distance ?? Int.max) { best = (candidate, distance) }
        }
        return best?.name
    }
}
