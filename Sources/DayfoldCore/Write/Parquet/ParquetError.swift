/// Why a Parquet file could not be written or read: the file, the step that
/// failed and what went wrong, e.g.
/// `out/streaks.parquet: writeRowGroup: column "day" has 9 rows, expected 10`.
public struct ParquetError: Error, Sendable, CustomStringConvertible {
    /// The broad kind of failure, for callers that branch on it.
    public enum Kind: String, Sendable {
        /// The caller broke the writer's contract (lengths, types, NULLs, closed writer).
        case invalidArgument
        /// The file system refused an open, read, seek or write.
        case io
        /// libzstd failed to compress or decompress a page.
        case compression
        /// The file is not a Parquet file or its metadata is damaged.
        case corrupt
        /// A valid Parquet feature this small reader does not implement.
        case unsupported
    }

    public var kind: Kind
    public var path: String
    /// The step that was running, e.g. `writeRowGroup`, `read footer`.
    public var operation: String
    public var detail: String

    public init(_ kind: Kind, path: String, operation: String, detail: String) {
        self.kind = kind
        self.path = path
        self.operation = operation
        self.detail = detail
    }

    public var description: String { "\(path): \(operation): \(detail)" }
}
