import Foundation

/// Writes a flat, ZSTD-compressed Parquet file one row group at a time.
///
/// Each row group is encoded and written as soon as it is handed over; only
/// its metadata stays in memory, so a file can be larger than memory. The
/// footer is written by `close()` — before that the file is not readable.
/// The same fields and row groups always give byte-identical files.
///
/// ```
/// let writer = try ParquetFileWriter(path: "days.parquet", fields: [
///     ParquetField(name: "day", type: .date, nullable: false),
///     ParquetField(name: "steps", type: .int64, nullable: true),
/// ])
/// try writer.writeRowGroup([.int32([20_000, 20_001]), .int64([8_000, nil])])
/// try writer.close()
/// ```
public final class ParquetFileWriter {
    /// Magic bytes that open and close every Parquet file.
    static let magic: [UInt8] = Array("PAR1".utf8)

    public let path: String
    public let fields: [ParquetField]
    private var file: OutputFile?
    private var offset: Int64 = 0
    private var rowGroups: [ParquetRowGroupMetadata] = []
    private let columnWriter: ParquetColumnChunkWriter
    /// The SHA-256 of every byte written, taken as it is written (the
    /// manifest's digest without reading the file back); set by `close`.
    public private(set) var sha256: String?
    private var hasher = SHA256Hasher()

    /// Creates (or truncates) the file at `path` and writes the leading magic.
    /// Throws if `fields` is empty, has an empty or repeated name, or the file cannot be created.
    public convenience init(path: String, fields: [ParquetField]) throws {
        try self.init(path: path, fields: fields, pageSizeLimit: ParquetColumnChunkWriter.defaultPageSizeLimit)
    }

    /// As `init(path:fields:)`, with a page size limit (tests use small pages to exercise splitting).
    init(path: String, fields: [ParquetField], pageSizeLimit: Int) throws(ParquetError) {
        self.path = path
        self.fields = fields
        self.columnWriter = ParquetColumnChunkWriter(pageSizeLimit: max(1, pageSizeLimit))
        guard !fields.isEmpty else {
            throw ParquetError(
                .invalidArgument, path: path, operation: "create", detail: "a Parquet file needs at least one field")
        }
        var seen: Set<String> = []
        for field in fields {
            guard !field.name.isEmpty, seen.insert(field.name).inserted else {
                throw ParquetError(
                    .invalidArgument, path: path, operation: "create",
                    detail: field.name.isEmpty ? "a field has an empty name" : "field \"\(field.name)\" appears twice"
                )
            }
        }
        do {
            file = try OutputFile(path: path)
        } catch {
            throw ParquetError(.io, path: path, operation: "create", detail: error.message)
        }
        try write(Self.magic, operation: "write header")
    }

    deinit {
        // An unfinished file (a failed run) is closed without its footer.
        try? file?.close()
    }

    /// Encodes and writes one row group: one column per field, in field order,
    /// all with the same number of rows. Throws on a count or type mismatch, a
    /// NULL in a non-nullable column, or an I/O failure. An empty row group is skipped.
    public func writeRowGroup(_ columns: [ParquetColumnData]) throws {
        try writeRowGroupTyped(columns)
    }

    private func writeRowGroupTyped(_ columns: [ParquetColumnData]) throws(ParquetError) {
        guard let group = try encodeRowGroup(columns) else { return }
        try writeRowGroup(encoded: group)
    }

    /// Encodes and compresses one row group without writing it (see
    /// `ParquetEncodedRowGroup`); nil for an empty one. Throws as `writeRowGroup`.
    func encodeRowGroup(_ columns: [ParquetColumnData]) throws(ParquetError) -> ParquetEncodedRowGroup? {
        let operation = "writeRowGroup"
        guard file != nil else {
            throw ParquetError(
                .invalidArgument, path: path, operation: operation, detail: "the writer is already closed")
        }
        guard columns.count == fields.count else {
            throw ParquetError(
                .invalidArgument, path: path, operation: operation,
                detail: "got \(columns.count) columns for \(fields.count) fields"
            )
        }
        let rowCount = columns[0].count
        for (field, column) in zip(fields, columns) {
            guard column.physicalType == field.type.physicalType else {
                throw ParquetError(
                    .invalidArgument, path: path, operation: operation,
                    detail: "column \"\(field.name)\" is \(field.type) but got \(column.physicalType.name) values"
                )
            }
            guard column.count == rowCount else {
                throw ParquetError(
                    .invalidArgument, path: path, operation: operation,
                    detail:
                        "column \"\(field.name)\" has \(column.count) rows, expected \(rowCount) like \"\(fields[0].name)\""
                )
            }
        }
        guard rowCount > 0 else { return nil }
        // The columns are encoded and compressed side by side, then written in
        // order with their offsets filled in: a table's last row group is
        // otherwise compressed on one core while the other has nothing left to do.
        let writer = columnWriter
        let fields = fields
        let path = path
        let encoded: [ParquetEncodedRowGroup.Chunk]
        do {
            encoded = try ParallelJobs(
                zip(fields, columns).map { field, column in
                    {
                        let (bytes, metadata) = try writer.encode(column, field: field, path: path)
                        return ParquetEncodedRowGroup.Chunk(bytes: bytes, metadata: metadata)
                    }
                }
            ).run()
        } catch let error as ParquetError {
            throw error
        } catch {
            throw ParquetError(.io, path: path, operation: operation, detail: "\(error)")
        }
        return ParquetEncodedRowGroup(rowCount: rowCount, chunks: encoded)
    }

    /// Encodes one column of a row group (`fields[index]`), as `encodeRowGroup` encodes it.
    func encodeChunk(_ column: ParquetColumnData, field index: Int) throws(ParquetError) -> ParquetEncodedRowGroup.Chunk
    {
        let (bytes, metadata) = try columnWriter.encode(column, field: fields[index], path: path)
        return ParquetEncodedRowGroup.Chunk(bytes: bytes, metadata: metadata)
    }

    /// Writes a row group encoded by this writer or by another of the same
    /// fields: its chunks are placed at the file's end and their offsets set.
    func writeRowGroup(encoded group: ParquetEncodedRowGroup) throws(ParquetError) {
        let operation = "writeRowGroup"
        guard group.chunks.count == fields.count, group.rowCount > 0 else {
            throw ParquetError(
                .invalidArgument, path: path, operation: operation,
                detail: "an encoded row group needs \(fields.count) chunks and at least one row")
        }
        guard let ordinal = Int16(exactly: rowGroups.count) else {
            throw ParquetError(.invalidArgument, path: path, operation: operation, detail: "more than 32767 row groups")
        }
        var chunks: [ParquetColumnChunkMetadata] = []
        for (chunk, field) in zip(group.chunks, fields) {
            var metadata = chunk.metadata
            metadata.dataPageOffset = offset
            try write(chunk.bytes, operation: "write column \"\(field.name)\"")
            chunks.append(metadata)
        }
        rowGroups.append(ParquetRowGroupMetadata(columns: chunks, rowCount: Int64(group.rowCount), ordinal: ordinal))
    }

    /// Writes the footer (file metadata, its length, the closing magic) and
    /// closes the file. Closing twice is an error.
    public func close() throws {
        try closeTyped()
    }

    private func closeTyped() throws(ParquetError) {
        guard let file else {
            throw ParquetError(.invalidArgument, path: path, operation: "close", detail: "the writer is already closed")
        }
        let footer = ParquetFileMetadata(fields: fields, rowGroups: rowGroups, createdBy: ParquetFileMetadata.createdBy)
            .encoded()
        var tail = footer
        ParquetPlainEncoder.appendLittleEndian(UInt64(footer.count), width: 4, &tail)
        tail.append(contentsOf: Self.magic)
        try write(tail, operation: "write footer")
        self.file = nil
        do {
            try file.close()
        } catch {
            throw ParquetError(.io, path: path, operation: "close", detail: error.message)
        }
        sha256 = hasher.finalizeHex()
    }

    private func write(_ bytes: [UInt8], operation: String) throws(ParquetError) {
        guard let file else {
            throw ParquetError(
                .invalidArgument, path: path, operation: operation, detail: "the writer is already closed")
        }
        do {
            try file.write(bytes)
            hasher.update(bytes)
        } catch {
            throw ParquetError(.io, path: path, operation: operation, detail: error.message)
        }
        offset += Int64(bytes.count)
    }
}

/// A row group's column chunks, encoded and compressed but not yet placed
/// in a file. A chunk's bytes depend only on its values and field, not on
/// where it lands (its offset is set when it is written), so the same rows
/// give the same chunks: an as-of series writes a month its step before
/// wrote the same from the chunks encoded then (`MonthBlockChunks`).
struct ParquetEncodedRowGroup: Sendable {
    struct Chunk: Sendable {
        var bytes: [UInt8]
        var metadata: ParquetColumnChunkMetadata
    }

    var rowCount: Int
    /// One per field, in field order.
    var chunks: [Chunk]
}
