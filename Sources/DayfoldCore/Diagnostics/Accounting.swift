/// What became of one input row (SPEC §1.6): exactly one of these.
public enum RowFate: Sendable {
    case accepted, duplicate, ignored, rejected
}

/// Per-file accounting: `rowsRead = accepted + duplicate + ignored + rejected`.
public struct FileAccount: Sendable {
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
public struct RejectedRecord: Sendable {
    public var file: String
    public var line: Int
    public var kind: String
    public var reason: String
    public var raw: String
}
