/// A Thrift `PageHeader` for a v1 data page: sizes, value count (NULLs
/// included) and encodings. Levels are always RLE, values always PLAIN.
struct ParquetPageHeader: Sendable, Equatable {
    /// Parquet's `PageType.DATA_PAGE`.
    static let dataPageType: Int64 = 0

    var pageType: Int64 = dataPageType
    var uncompressedSize: Int32
    var compressedSize: Int32
    var valueCount: Int32
    var encoding: Int32 = ParquetEncoding.plain.rawValue

    func write(to thrift: inout ThriftCompactWriter) {
        thrift.writeI32(field: 1, Int32(pageType))
        thrift.writeI32(field: 2, uncompressedSize)
        thrift.writeI32(field: 3, compressedSize)
        thrift.writeStruct(field: 5) { page in
            page.writeI32(field: 1, valueCount)
            page.writeI32(field: 2, encoding)
            page.writeI32(field: 3, ParquetEncoding.rle.rawValue)  // definition levels
            page.writeI32(field: 4, ParquetEncoding.rle.rawValue)  // repetition levels (none: flat schema)
        }
        thrift.writeStop()
    }

    func encoded() -> [UInt8] {
        var thrift = ThriftCompactWriter()
        write(to: &thrift)
        return thrift.bytes
    }

    init(uncompressedSize: Int32, compressedSize: Int32, valueCount: Int32) {
        self.uncompressedSize = uncompressedSize
        self.compressedSize = compressedSize
        self.valueCount = valueCount
    }

    init(thrift: ThriftStruct) throws(ParquetMetadataError) {
        guard let type = thrift.integer(1),
            let uncompressed = thrift.integer(2).flatMap({ Int32(exactly: $0) }),
            let compressed = thrift.integer(3).flatMap({ Int32(exactly: $0) }),
            uncompressed >= 0, compressed >= 0
        else { throw ParquetMetadataError("page header lacks its type or sizes") }
        self.pageType = type
        self.uncompressedSize = uncompressed
        self.compressedSize = compressed
        if type == Self.dataPageType {
            guard let data = thrift.structure(5),
                let values = data.integer(1).flatMap({ Int32(exactly: $0) }), values >= 0,
                let encoding = data.integer(2).flatMap({ Int32(exactly: $0) })
            else { throw ParquetMetadataError("data page header lacks its value count or encoding") }
            self.valueCount = values
            self.encoding = encoding
        } else {
            self.valueCount = 0
        }
    }
}
