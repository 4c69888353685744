/// Encodes one column of one row group into a column chunk: v1 data pages of
/// about `pageSizeLimit` uncompressed bytes, each [definition levels] + PLAIN
/// values compressed on its own with one zstd call, each preceded by its
/// Thrift page header.
struct ParquetColumnChunkWriter: Sendable {
    /// About 1 MiB per page: large enough to compress well, small enough that
    /// readers can skip or stream pages.
    static let defaultPageSizeLimit = 1 << 20

    var pageSizeLimit = defaultPageSizeLimit
    var compressor = ZstdCompressor()

    /// The chunk's bytes and its metadata. Its `dataPageOffset` is 0: the file
    /// writer sets it when it writes the chunk (chunks are encoded side by
    /// side, before their places in the file are known).
    func encode(
        _ column: ParquetColumnData,
        field: ParquetField,
        path: String
    ) throws(ParquetError) -> (bytes: [UInt8], metadata: ParquetColumnChunkMetadata) {
        var chunk: [UInt8] = []
        var uncompressedTotal: Int64 = 0
        // One context, page body and compressed buffer for all the chunk's pages.
        let settings = field.type == .string ? ZstdCompressor.text : compressor
        let context: ZstdCompressionContext
        do {
            context = try settings.makeContext()
        } catch {
            throw ParquetError(.compression, path: path, operation: "compress \"\(field.name)\"", detail: "\(error)")
        }
        var body: [UInt8] = []
        var compressed: [UInt8] = []
        let statistics = ParquetColumnStatistics(of: column)
        let nullCount = Int(statistics.nullCount)
        // Checked here, with the NULLs the statistics counted, not before the
        // row group's columns are handed out: counting them there was a pass
        // over every required column on one thread. Nothing of the row group
        // is written when a column fails.
        if !field.nullable && nullCount > 0 {
            throw ParquetError(
                .invalidArgument, path: path, operation: "writeRowGroup",
                detail: "column \"\(field.name)\" is not nullable but holds \(nullCount) NULLs"
            )
        }
        for rows in pageRanges(column, nullable: field.nullable, nullCount: nullCount) {
            body.removeAll(keepingCapacity: true)
            compressed.removeAll(keepingCapacity: true)
            if field.nullable {
                // A chunk without NULLs (or of NULLs only) has one run of levels per page.
                let levels =
                    nullCount == 0 || nullCount == column.count
                    ? ParquetLevelEncoder.encodeRun(of: nullCount == 0, count: rows.count)
                    : ParquetLevelEncoder.encode(definedFlags(column, rows: rows))
                ParquetPlainEncoder.appendLittleEndian(UInt64(levels.count), width: 4, &body)
                body.append(contentsOf: levels)
            }
            ParquetPlainEncoder.encode(column, rows: rows, into: &body)
            do {
                try settings.compress(body, appendingTo: &compressed, context: context)
            } catch {
                throw ParquetError(
                    .compression, path: path, operation: "compress page of \"\(field.name)\"", detail: "\(error)")
            }
            guard let uncompressedSize = Int32(exactly: body.count),
                let compressedSize = Int32(exactly: compressed.count)
            else {
                throw ParquetError(
                    .invalidArgument, path: path, operation: "writeRowGroup",
                    detail: "a page of column \"\(field.name)\" exceeds 2 GiB (one value too large)"
                )
            }
            let header = ParquetPageHeader(
                uncompressedSize: uncompressedSize,
                compressedSize: compressedSize,
                valueCount: Int32(rows.count)
            ).encoded()
            chunk.append(contentsOf: header)
            chunk.append(contentsOf: compressed)
            uncompressedTotal += Int64(header.count + body.count)
        }
        let metadata = ParquetColumnChunkMetadata(
            physicalType: field.type.physicalType,
            encodings: field.nullable ? [.plain, .rle] : [.plain],
            path: [field.name],
            codec: ParquetCompressionCodec.zstd.rawValue,
            valueCount: Int64(column.count),
            totalUncompressedSize: uncompressedTotal,
            totalCompressedSize: Int64(chunk.count),
            dataPageOffset: 0,
            statistics: statistics
        )
        return (chunk, metadata)
    }

    /// Splits the rows into pages of about `pageSizeLimit` uncompressed bytes
    /// (at least one page, so that even an empty chunk has a page to point at).
    /// A page ends at the first row whose value and level bits, added up from
    /// the page's first row, reach the limit. Most chunks (a row group is
    /// 128 Ki rows) are one page whatever their values, and a fixed-width
    /// chunk without NULLs splits every so many rows: both are known without
    /// a pass over the rows (`nullCount`, when the caller has counted them).
    func pageRanges(_ column: ParquetColumnData, nullable: Bool, nullCount: Int? = nil) -> [Range<Int>] {
        let limitBits = pageSizeLimit * 8
        let levelBits = nullable ? 1 : 0
        let count = column.count
        let fixedBits: Int? =
            switch column {
            case .boolean: 1
            case .int32: 32
            case .int64, .double: 64
            case .string, .utf8: nil
            }
        if let fixedBits {
            let rowBits = fixedBits + levelBits
            if count * rowBits < limitBits { return [0..<count] }
            if (nullCount ?? column.nullCount) == 0 {
                let rowsPerPage = (limitBits + rowBits - 1) / rowBits
                return stride(from: 0, to: count, by: rowsPerPage).map { $0..<Swift.min($0 + rowsPerPage, count) }
            }
        } else if case .utf8(let strings) = column, (32 + levelBits) * count + 8 * strings.bytes.count < limitBits {
            // Every value's bits at most: 32 for its length, 8 per byte.
            return [0..<count]
        }
        var ranges: [Range<Int>] = []
        var start = 0
        var bits = 0
        func add(_ rowIndex: Int, _ valueBits: Int) {
            bits += valueBits + levelBits
            if bits >= limitBits {
                ranges.append(start..<rowIndex + 1)
                start = rowIndex + 1
                bits = 0
            }
        }
        switch column {
        case .boolean(let values):
            for (rowIndex, value) in values.enumerated() { add(rowIndex, value == nil ? 0 : 1) }
        case .int32(let values):
            for (rowIndex, value) in values.enumerated() { add(rowIndex, value == nil ? 0 : 32) }
        case .int64(let values):
            for (rowIndex, value) in values.enumerated() { add(rowIndex, value == nil ? 0 : 64) }
        case .double(let values):
            for (rowIndex, value) in values.enumerated() { add(rowIndex, value == nil ? 0 : 64) }
        case .string(let values):
            for (rowIndex, value) in values.enumerated() { add(rowIndex, value.map { 32 + 8 * $0.utf8.count } ?? 0) }
        case .utf8(let column):
            // A run of one value (`repeated`) adds the same bits per row, so
            // the row where the page fills is found by division.
            ByteCopy.forEachRun(of: column, in: 0..<column.count) { first, count in
                let rowBits = (column.nulls[first] ? 0 : 32 + 8 * column.range(first).count) + levelBits
                guard count > 1, rowBits > 0 else { return add(first, rowBits - levelBits) }
                var row = first
                var left = count
                while left > 0 {
                    let rowsToFill = (limitBits - bits + rowBits - 1) / rowBits
                    guard rowsToFill <= left else {
                        bits += left * rowBits
                        return
                    }
                    row += rowsToFill
                    left -= rowsToFill
                    ranges.append(start..<row)
                    start = row
                    bits = 0
                }
            }
        }
        if start < column.count || ranges.isEmpty { ranges.append(start..<column.count) }
        return ranges
    }

    private func definedFlags(_ column: ParquetColumnData, rows: Range<Int>) -> [Bool] {
        switch column {
        case .boolean(let values): values[rows].map { $0 != nil }
        case .int32(let values): values[rows].map { $0 != nil }
        case .int64(let values): values[rows].map { $0 != nil }
        case .double(let values): values[rows].map { $0 != nil }
        case .string(let values): values[rows].map { $0 != nil }
        case .utf8(let column): column.nulls[rows].map { !$0 }
        }
    }
}
