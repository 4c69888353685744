/// The Thrift `ColumnChunk` with its `ColumnMetaData`, for one column of one row group.
struct ParquetColumnChunkMetadata: Sendable, Equatable {
    var physicalType: ParquetPhysicalType
    var encodings: [ParquetEncoding]
    var path: [String]
    var codec: Int32
    /// Values including NULLs.
    var valueCount: Int64
    /// Page headers plus uncompressed page bodies.
    var totalUncompressedSize: Int64
    /// Page headers plus compressed page bodies: the chunk's bytes in the file.
    var totalCompressedSize: Int64
    var dataPageOffset: Int64
    var statistics: ParquetColumnStatistics?

    /// Writes the fields; the caller (`writeStructValue`) adds the stop byte.
    func write(to thrift: inout ThriftCompactWriter) {
        // file_offset: the format asks for 0 when no metadata is written outside the footer.
        thrift.writeI64(field: 2, 0)
        thrift.writeStruct(field: 3) { meta in
            meta.writeI32(field: 1, physicalType.rawValue)
            meta.writeListHeader(field: 2, elementType: .i32, count: encodings.count)
            for encoding in encodings { meta.writeI32Element(encoding.rawValue) }
            meta.writeListHeader(field: 3, elementType: .binary, count: path.count)
            for name in path { meta.writeStringElement(name) }
            meta.writeI32(field: 4, codec)
            meta.writeI64(field: 5, valueCount)
            meta.writeI64(field: 6, totalUncompressedSize)
            meta.writeI64(field: 7, totalCompressedSize)
            meta.writeI64(field: 9, dataPageOffset)
            if let statistics {
                meta.writeStruct(field: 12) { statistics.write(to: &$0) }
            }
        }
    }

    init(
        physicalType: ParquetPhysicalType,
        encodings: [ParquetEncoding],
        path: [String],
        codec: Int32,
        valueCount: Int64,
        totalUncompressedSize: Int64,
        totalCompressedSize: Int64,
        dataPageOffset: Int64,
        statistics: ParquetColumnStatistics?
    ) {
        self.physicalType = physicalType
        self.encodings = encodings
        self.path = path
        self.codec = codec
        self.valueCount = valueCount
        self.totalUncompressedSize = totalUncompressedSize
        self.totalCompressedSize = totalCompressedSize
        self.dataPageOffset = dataPageOffset
        self.statistics = statistics
    }

    init(thrift: ThriftStruct) throws(ParquetMetadataError) {
        guard let meta = thrift.structure(3) else {
            throw ParquetMetadataError("column chunk without meta_data (external column files are not read)")
        }
        guard let rawType = meta.integer(1), let type = Int32(exactly: rawType).flatMap(ParquetPhysicalType.init),
            let codec = meta.integer(4).flatMap({ Int32(exactly: $0) }),
            let valueCount = meta.integer(5), valueCount >= 0,
            let uncompressed = meta.integer(6), let compressed = meta.integer(7), compressed >= 0,
            let dataPageOffset = meta.integer(9), dataPageOffset >= 0
        else { throw ParquetMetadataError("column chunk metadata lacks a required field") }
        self.physicalType = type
        self.encodings = (meta.list(2) ?? []).compactMap {
            if case .integer(let raw) = $0 { return Int32(exactly: raw).flatMap(ParquetEncoding.init) }
            return nil
        }
        self.path = (meta.list(3) ?? []).compactMap {
            if case .binary(let bytes) = $0 { return String(decoding: bytes, as: UTF8.self) }
            return nil
        }
        self.codec = codec
        self.valueCount = valueCount
        self.totalUncompressedSize = uncompressed
        self.totalCompressedSize = compressed
        // A dictionary page, when present, comes first.
        self.dataPageOffset = meta.integer(11).map { Swift.min($0, dataPageOffset) } ?? dataPageOffset
        self.statistics = meta.structure(12).map(ParquetColumnStatistics.init(thrift:))
    }
}

/// The Thrift `RowGroup`: its column chunks and sizes.
struct ParquetRowGroupMetadata: Sendable, Equatable {
    var columns: [ParquetColumnChunkMetadata]
    var rowCount: Int64
    var ordinal: Int16

    var totalUncompressedSize: Int64 { columns.reduce(0) { $0 + $1.totalUncompressedSize } }
    var totalCompressedSize: Int64 { columns.reduce(0) { $0 + $1.totalCompressedSize } }
    var fileOffset: Int64 { columns.first?.dataPageOffset ?? 0 }

    func write(to thrift: inout ThriftCompactWriter) {
        thrift.writeListHeader(field: 1, elementType: .structure, count: columns.count)
        for column in columns { thrift.writeStructValue { column.write(to: &$0) } }
        thrift.writeI64(field: 2, totalUncompressedSize)
        thrift.writeI64(field: 3, rowCount)
        thrift.writeI64(field: 5, fileOffset)
        thrift.writeI64(field: 6, totalCompressedSize)
        thrift.writeI16(field: 7, ordinal)
    }

    init(columns: [ParquetColumnChunkMetadata], rowCount: Int64, ordinal: Int16) {
        self.columns = columns
        self.rowCount = rowCount
        self.ordinal = ordinal
    }

    init(thrift: ThriftStruct) throws(ParquetMetadataError) {
        guard let columns = thrift.list(1), let rowCount = thrift.integer(3), rowCount >= 0 else {
            throw ParquetMetadataError("row group lacks its columns or row count")
        }
        self.columns = try columns.map { value throws(ParquetMetadataError) in
            guard case .structure(let chunk) = value else { throw ParquetMetadataError("column chunk is not a struct") }
            return try ParquetColumnChunkMetadata(thrift: chunk)
        }
        self.rowCount = rowCount
        self.ordinal = Int16(clamping: thrift.integer(7) ?? 0)
    }
}

/// The Thrift `FileMetaData`: the footer that makes a Parquet file readable.
struct ParquetFileMetadata: Sendable, Equatable {
    /// Fixed so that identical input gives identical bytes.
    static let createdBy = "dayfold"

    var fields: [ParquetField]
    var rowGroups: [ParquetRowGroupMetadata]
    var createdBy: String?

    var rowCount: Int64 { rowGroups.reduce(0) { $0 + $1.rowCount } }

    func encoded() -> [UInt8] {
        var thrift = ThriftCompactWriter()
        thrift.writeI32(field: 1, 1)  // version
        let schema = [ParquetSchemaElement.root(childCount: fields.count)] + fields.map(ParquetSchemaElement.leaf)
        thrift.writeListHeader(field: 2, elementType: .structure, count: schema.count)
        for element in schema { thrift.writeStructValue { element.write(to: &$0) } }
        thrift.writeI64(field: 3, rowCount)
        thrift.writeListHeader(field: 4, elementType: .structure, count: rowGroups.count)
        for group in rowGroups { thrift.writeStructValue { group.write(to: &$0) } }
        if let createdBy { thrift.writeString(field: 6, createdBy) }
        // column_orders: TYPE_ORDER for every leaf, which gives min_value/max_value their meaning.
        thrift.writeListHeader(field: 7, elementType: .structure, count: fields.count)
        for _ in fields { thrift.writeStructValue { $0.writeStruct(field: 1) { _ in } } }
        thrift.writeStop()
        return thrift.bytes
    }

    init(fields: [ParquetField], rowGroups: [ParquetRowGroupMetadata], createdBy: String?) {
        self.fields = fields
        self.rowGroups = rowGroups
        self.createdBy = createdBy
    }

    init(thrift: ThriftStruct) throws(ParquetMetadataError) {
        guard let schema = thrift.list(2), let groups = thrift.list(4) else {
            throw ParquetMetadataError("file metadata lacks its schema or row groups")
        }
        let elements = try schema.map { value throws(ParquetMetadataError) in
            guard case .structure(let element) = value else {
                throw ParquetMetadataError("schema element is not a struct")
            }
            return try ParquetSchemaElement(thrift: element)
        }
        guard let root = elements.first, root.field == nil, Int(root.childCount ?? -1) == elements.count - 1 else {
            throw ParquetMetadataError("schema is not one root group of flat columns")
        }
        var fields: [ParquetField] = []
        for element in elements.dropFirst() {
            guard let field = element.field else {
                throw ParquetMetadataError("column \"\(element.name)\" is a nested group; only flat schemas are read")
            }
            fields.append(field)
        }
        self.fields = fields
        self.rowGroups = try groups.map { value throws(ParquetMetadataError) in
            guard case .structure(let group) = value else { throw ParquetMetadataError("row group is not a struct") }
            return try ParquetRowGroupMetadata(thrift: group)
        }
        for group in rowGroups where group.columns.count != fields.count {
            throw ParquetMetadataError(
                "row group \(group.ordinal) has \(group.columns.count) columns, schema has \(fields.count)")
        }
        self.createdBy = thrift.string(6)
    }
}
