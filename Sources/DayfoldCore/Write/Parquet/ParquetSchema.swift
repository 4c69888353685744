/// The column types dayfold writes. Each maps to one Parquet physical type
/// plus, where it matters to readers, a logical type.
public enum ParquetType: Sendable, Equatable, CaseIterable, Codable {
    /// BOOLEAN.
    case boolean
    /// INT32 without annotation.
    case int32
    /// INT32 days since 1970-01-01, logical type DATE.
    case date
    /// INT64 without annotation.
    case int64
    /// INT64 microseconds since the Unix epoch, logical type
    /// TIMESTAMP(isAdjustedToUTC: true, unit: MICROS).
    case timestampMicros
    /// DOUBLE.
    case double
    /// BYTE_ARRAY holding UTF-8, logical type STRING.
    case string
}

/// One top-level column of a flat Parquet schema.
public struct ParquetField: Sendable, Equatable, Codable {
    public var name: String
    public var type: ParquetType
    /// OPTIONAL (NULLs allowed, definition levels written) or REQUIRED.
    public var nullable: Bool

    public init(name: String, type: ParquetType, nullable: Bool) {
        self.name = name
        self.type = type
        self.nullable = nullable
    }
}

/// One column's values for one row group; `nil` is a NULL.
/// `.int32` holds DATE days too, `.int64` holds TIMESTAMP microseconds too.
public enum ParquetColumnData: Sendable, Equatable {
    case boolean([Bool?])
    case int32([Int32?])
    case int64([Int64?])
    case double([Double?])
    case string([String?])
    /// Strings as UTF-8 bytes back to back (what dayfold's writers produce).
    case utf8(ParquetByteColumn)

    /// Number of rows, NULLs included.
    public var count: Int {
        switch self {
        case .boolean(let values): values.count
        case .int32(let values): values.count
        case .int64(let values): values.count
        case .double(let values): values.count
        case .string(let values): values.count
        case .utf8(let column): column.count
        }
    }

    /// Number of NULLs.
    public var nullCount: Int {
        switch self {
        case .boolean(let values): values.reduce(0) { $0 + ($1 == nil ? 1 : 0) }
        case .int32(let values): values.reduce(0) { $0 + ($1 == nil ? 1 : 0) }
        case .int64(let values): values.reduce(0) { $0 + ($1 == nil ? 1 : 0) }
        case .double(let values): values.reduce(0) { $0 + ($1 == nil ? 1 : 0) }
        case .string(let values): values.reduce(0) { $0 + ($1 == nil ? 1 : 0) }
        case .utf8(let column): column.nullCount
        }
    }

    /// The first `count` rows.
    func prefix(_ count: Int) -> ParquetColumnData {
        switch self {
        case .boolean(let values): .boolean(Array(values.prefix(count)))
        case .int32(let values): .int32(Array(values.prefix(count)))
        case .int64(let values): .int64(Array(values.prefix(count)))
        case .double(let values): .double(Array(values.prefix(count)))
        case .string(let values): .string(Array(values.prefix(count)))
        case .utf8(let column): .utf8(column.slice(0..<Swift.min(count, column.count)))
        }
    }

    /// `self` followed by `other`'s rows; both must hold the same case.
    func appending(_ other: ParquetColumnData) -> ParquetColumnData? {
        switch (self, other) {
        case (.boolean(let a), .boolean(let b)): .boolean(a + b)
        case (.int32(let a), .int32(let b)): .int32(a + b)
        case (.int64(let a), .int64(let b)): .int64(a + b)
        case (.double(let a), .double(let b)): .double(a + b)
        case (.string(let a), .string(let b)): .string(a + b)
        case (.utf8(let a), .utf8(let b)): .utf8(a.appending(b))
        default: nil
        }
    }

    /// An empty column of the case that carries `type`.
    static func empty(for type: ParquetType) -> ParquetColumnData {
        switch type.physicalType {
        case .boolean: .boolean([])
        case .int32: .int32([])
        case .int64: .int64([])
        case .double: .double([])
        case .byteArray: .string([])
        }
    }

    /// The physical type of the values this case holds.
    var physicalType: ParquetPhysicalType {
        switch self {
        case .boolean: .boolean
        case .int32: .int32
        case .int64: .int64
        case .double: .double
        case .string, .utf8: .byteArray
        }
    }
}

/// Parquet's `Type` enum, restricted to the members dayfold writes.
enum ParquetPhysicalType: Int32, Sendable {
    case boolean = 0
    case int32 = 1
    case int64 = 2
    case double = 5
    case byteArray = 6

    var name: String {
        switch self {
        case .boolean: "BOOLEAN"
        case .int32: "INT32"
        case .int64: "INT64"
        case .double: "DOUBLE"
        case .byteArray: "BYTE_ARRAY"
        }
    }
}

/// Parquet's `ConvertedType` members dayfold writes, for readers that predate logical types.
enum ParquetConvertedType: Int32, Sendable {
    case utf8 = 0
    case date = 6
    case timestampMicros = 10
}

/// Parquet's `Encoding` members dayfold writes.
enum ParquetEncoding: Int32, Sendable {
    case plain = 0
    case rle = 3
}

/// Parquet's `CompressionCodec` enum.
enum ParquetCompressionCodec: Int32, Sendable {
    case uncompressed = 0
    case snappy = 1
    case gzip = 2
    case lzo = 3
    case brotli = 4
    case lz4 = 5
    case zstd = 6
    case lz4Raw = 7

    var name: String {
        switch self {
        case .uncompressed: "UNCOMPRESSED"
        case .snappy: "SNAPPY"
        case .gzip: "GZIP"
        case .lzo: "LZO"
        case .brotli: "BROTLI"
        case .lz4: "LZ4"
        case .zstd: "ZSTD"
        case .lz4Raw: "LZ4_RAW"
        }
    }
}

extension ParquetType {
    var physicalType: ParquetPhysicalType {
        switch self {
        case .boolean: .boolean
        case .int32, .date: .int32
        case .int64, .timestampMicros: .int64
        case .double: .double
        case .string: .byteArray
        }
    }

    var convertedType: ParquetConvertedType? {
        switch self {
        case .date: .date
        case .timestampMicros: .timestampMicros
        case .string: .utf8
        case .boolean, .int32, .int64, .double: nil
        }
    }
}
