/// What a generation wrote.
public struct DropGeneratorSummary: Sendable {
    /// Every file, by path relative to the drop root (byte order): data rows
    /// (header excluded) and size on disk (compressed size with zstd).
    public var files: [(path: String, rows: Int, bytes: Int64)]
    /// Total size as CSV, before compression (equals `totalBytes` without zstd).
    public var csvBytes: Int64
    /// The window of local dates, `YYYY-MM-DD`.
    public var firstDate: String
    public var lastDate: String

    public var totalRows: Int { files.reduce(0) { $0 + $1.rows } }
    public var totalBytes: Int64 { files.reduce(0) { $0 + $1.bytes } }
}
