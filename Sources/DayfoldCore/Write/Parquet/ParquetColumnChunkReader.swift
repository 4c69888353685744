/// Decodes the pages of one column chunk written by `ParquetColumnChunkWriter`
/// (or any writer using v1 data pages, PLAIN values and ZSTD or no compression).
struct ParquetColumnChunkReader: Sendable {
    var path: String
    var decompressor = ZstdCompressor()

    /// Decodes up to `rowLimit` rows from the chunk's bytes.
    func decode(
        _ bytes: [UInt8],
        chunk: ParquetColumnChunkMetadata,
        field: ParquetField,
        rowLimit: Int
    ) throws(ParquetError) -> ParquetColumnData {
        let operation = "read column \"\(field.name)\""
        guard chunk.physicalType == field.type.physicalType else {
            throw ParquetError(
                .corrupt, path: path, operation: operation,
                detail: "chunk holds \(chunk.physicalType.name), schema says \(field.type.physicalType.name)"
            )
        }
        guard let codec = ParquetCompressionCodec(rawValue: chunk.codec), codec == .zstd || codec == .uncompressed
        else {
            throw ParquetError(
                .unsupported, path: path, operation: operation, detail: "codec \(chunk.codec) is not read")
        }
        var result = ParquetColumnData.empty(for: field.type)
        var position = 0
        while result.count < rowLimit && position < bytes.count {
            var thrift = ThriftCompactReader(bytes: bytes, position: position)
            let header: ParquetPageHeader
            do {
                header = try ParquetPageHeader(thrift: try thrift.readStruct())
            } catch {
                throw ParquetError(
                    .corrupt, path: path, operation: operation,
                    detail: "page header at chunk byte \(position): \(error)")
            }
            let bodyStart = thrift.position
            let bodyEnd = bodyStart + Int(header.compressedSize)
            guard bodyEnd <= bytes.count else {
                throw ParquetError(
                    .corrupt, path: path, operation: operation,
                    detail: "page at chunk byte \(position) runs past the chunk")
            }
            position = bodyEnd
            guard header.pageType == ParquetPageHeader.dataPageType else {
                throw ParquetError(
                    .unsupported, path: path, operation: operation,
                    detail: "page type \(header.pageType) (only v1 data pages are read)"
                )
            }
            guard header.encoding == ParquetEncoding.plain.rawValue else {
                throw ParquetError(
                    .unsupported, path: path, operation: operation,
                    detail: "value encoding \(header.encoding) (only PLAIN is read)"
                )
            }
            let compressed = Array(bytes[bodyStart..<bodyEnd])
            let body: [UInt8]
            if codec == .zstd {
                do {
                    body = try decompressor.decompress(compressed, expectedSize: Int(header.uncompressedSize))
                } catch {
                    throw ParquetError(.compression, path: path, operation: operation, detail: "\(error)")
                }
            } else {
                body = compressed
            }
            let page = try decodePage(body, header: header, field: field, operation: operation)
            guard let combined = result.appending(page) else {
                throw ParquetError(.corrupt, path: path, operation: operation, detail: "page of another type")
            }
            result = combined
        }
        guard result.count >= rowLimit else {
            throw ParquetError(
                .corrupt, path: path, operation: operation,
                detail: "chunk holds \(result.count) values, row group needs \(rowLimit)"
            )
        }
        return result.prefix(rowLimit)
    }

    private func decodePage(
        _ body: [UInt8],
        header: ParquetPageHeader,
        field: ParquetField,
        operation: String
    ) throws(ParquetError) -> ParquetColumnData {
        let valueCount = Int(header.valueCount)
        var valuesStart = 0
        var defined = [Bool](repeating: true, count: valueCount)
        if field.nullable {
            guard body.count >= 4 else {
                throw ParquetError(
                    .corrupt, path: path, operation: operation, detail: "page too short for its definition levels")
            }
            let levelsLength = Int(ParquetPlainDecoder.littleEndian(body, 0, 4))
            guard levelsLength <= body.count - 4 else {
                throw ParquetError(
                    .corrupt, path: path, operation: operation, detail: "definition levels run past the page")
            }
            do {
                defined = try ParquetLevelDecoder.decode(body, range: 4..<4 + levelsLength, count: valueCount)
            } catch {
                throw ParquetError(.corrupt, path: path, operation: operation, detail: error.detail)
            }
            valuesStart = 4 + levelsLength
        }
        do {
            return try ParquetPlainDecoder.decode(
                field.type.physicalType, bytes: body, start: valuesStart, defined: defined)
        } catch {
            throw ParquetError(.corrupt, path: path, operation: operation, detail: error.detail)
        }
    }
}
