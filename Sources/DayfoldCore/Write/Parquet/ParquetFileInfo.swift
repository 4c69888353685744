import Foundation

/// One row group as recorded in the footer.
public struct ParquetRowGroupInfo: Sendable, Equatable {
    public var rows: Int64
    /// Bytes the row group's column chunks take in the file (compressed, page headers included).
    public var bytes: Int64
    /// The same chunks' size before compression.
    public var uncompressedBytes: Int64
    /// Statistics of each column chunk, in field order (nil when the writer recorded none).
    public var statistics: [ParquetColumnStatistics?]
}

/// The metadata of a Parquet file this writer produced, and a small reader
/// for its first rows — enough for `dayfold inspect` and for tests. It reads
/// flat schemas of the types in `ParquetType`, v1 data pages, PLAIN values
/// and ZSTD or uncompressed pages; anything else is reported as unsupported.
public struct ParquetFileInfo: Sendable {
    public var fields: [ParquetField]
    public var rowCount: Int64
    public var rowGroups: [ParquetRowGroupInfo]
    /// The compression codec of the column chunks, e.g. `ZSTD`; `MIXED(…)` if they differ.
    public var codec: String
    public var createdBy: String?
    var metadata: ParquetFileMetadata

    /// Reads and decodes the footer of the file at `path`.
    public static func read(path: String) throws -> ParquetFileInfo {
        try readTyped(path: path)
    }

    /// Decodes the first `limit` rows (fewer if the file is shorter), one
    /// entry per field in field order.
    public func readColumns(path: String, limit: Int) throws -> [ParquetColumnData] {
        try readColumnsTyped(path: path, limit: limit)
    }

    static func readTyped(path: String) throws(ParquetError) -> ParquetFileInfo {
        let file = try ParquetFileReader(path: path)
        let size = try file.size()
        let magic = ParquetFileWriter.magic
        let trailerSize = 8
        guard size >= Int64(magic.count + trailerSize) else {
            throw ParquetError(
                .corrupt, path: path, operation: "read footer", detail: "file of \(size) bytes is too short for Parquet"
            )
        }
        guard try file.read(offset: 0, count: magic.count) == magic else {
            throw ParquetError(.corrupt, path: path, operation: "read header", detail: "file does not start with PAR1")
        }
        let trailer = try file.read(offset: size - Int64(trailerSize), count: trailerSize)
        guard Array(trailer[4...]) == magic else {
            throw ParquetError(
                .corrupt, path: path, operation: "read footer", detail: "file does not end with PAR1 (not closed?)")
        }
        let footerLength = Int64(ParquetPlainDecoder.littleEndian(trailer, 0, 4))
        guard footerLength <= size - Int64(magic.count + trailerSize) else {
            throw ParquetError(
                .corrupt, path: path, operation: "read footer", detail: "footer length \(footerLength) exceeds the file"
            )
        }
        let footer = try file.read(offset: size - Int64(trailerSize) - footerLength, count: Int(footerLength))
        let metadata: ParquetFileMetadata
        do {
            var reader = ThriftCompactReader(bytes: footer)
            metadata = try ParquetFileMetadata(thrift: try reader.readStruct())
        } catch {
            throw ParquetError(.corrupt, path: path, operation: "decode footer", detail: "\(error)")
        }
        return ParquetFileInfo(metadata: metadata)
    }

    init(metadata: ParquetFileMetadata) {
        self.metadata = metadata
        self.fields = metadata.fields
        self.rowCount = metadata.rowCount
        self.createdBy = metadata.createdBy
        self.rowGroups = metadata.rowGroups.map { group in
            ParquetRowGroupInfo(
                rows: group.rowCount,
                bytes: group.totalCompressedSize,
                uncompressedBytes: group.totalUncompressedSize,
                statistics: group.columns.map(\.statistics)
            )
        }
        let codecs = Set(metadata.rowGroups.flatMap { $0.columns.map(\.codec) }).sorted()
        let names = codecs.map { ParquetCompressionCodec(rawValue: $0)?.name ?? "CODEC(\($0))" }
        switch names.count {
        case 0: self.codec = "NONE"
        case 1: self.codec = names[0]
        default: self.codec = "MIXED(\(names.joined(separator: ",")))"
        }
    }

    private func readColumnsTyped(path: String, limit: Int) throws(ParquetError) -> [ParquetColumnData] {
        let file = try ParquetFileReader(path: path)
        let chunkReader = ParquetColumnChunkReader(path: path)
        var columns = fields.map { ParquetColumnData.empty(for: $0.type) }
        var remaining = max(0, limit)
        for group in metadata.rowGroups where remaining > 0 {
            let rows = Int(min(Int64(remaining), group.rowCount))
            for (fieldIndex, chunk) in group.columns.enumerated() {
                let field = fields[fieldIndex]
                let bytes = try file.read(offset: chunk.dataPageOffset, count: Int(chunk.totalCompressedSize))
                let values = try chunkReader.decode(bytes, chunk: chunk, field: field, rowLimit: rows)
                guard let combined = columns[fieldIndex].appending(values) else {
                    throw ParquetError(
                        .corrupt, path: path, operation: "read column \"\(field.name)\"",
                        detail: "chunk holds \(chunk.physicalType.name) values, schema says \(field.type)"
                    )
                }
                columns[fieldIndex] = combined
            }
            remaining -= rows
        }
        return columns
    }
}
