/// One non-NULL value, as found in column statistics.
public enum ParquetScalar: Sendable, Equatable {
    case boolean(Bool)
    case int32(Int32)
    case int64(Int64)
    case double(Double)
    case string(String)
}

/// Column-chunk statistics as Parquet stores them: `min_value`/`max_value`
/// PLAIN-encoded (strings without a length prefix) in the order the column's
/// type defines — signed for integers, dates and timestamps, numeric for
/// doubles (NaN left out), false < true, unsigned bytes for strings.
public struct ParquetColumnStatistics: Sendable, Equatable {
    public var nullCount: Int64
    /// PLAIN bytes of the minimum; nil when the chunk holds no comparable value.
    public var minBytes: [UInt8]?
    public var maxBytes: [UInt8]?
    /// Set for DOUBLE columns, as the format requires alongside min/max.
    public var nanCount: Int64?

    /// The minimum decoded for `type`, or nil.
    public func min(as type: ParquetType) -> ParquetScalar? { minBytes.flatMap { Self.decode($0, type) } }
    /// The maximum decoded for `type`, or nil.
    public func max(as type: ParquetType) -> ParquetScalar? { maxBytes.flatMap { Self.decode($0, type) } }

    init(nullCount: Int64, minBytes: [UInt8]?, maxBytes: [UInt8]?, nanCount: Int64?) {
        self.nullCount = nullCount
        self.minBytes = minBytes
        self.maxBytes = maxBytes
        self.nanCount = nanCount
    }

    /// The smallest and largest non-NULL value (nil when all are NULL) and
    /// the number of NULLs, in one pass: counting the NULLs on their own was
    /// a second pass over every numeric chunk.
    private static func survey<Value: FixedWidthInteger>(_ values: [Value?]) -> (extremes: (Value, Value)?, nulls: Int)
    {
        var low = Value.max
        var high = Value.min
        var nulls = 0
        for value in values {
            guard let value else {
                nulls += 1
                continue
            }
            low = Swift.min(low, value)
            high = Swift.max(high, value)
        }
        return (nulls == values.count ? nil : (low, high), nulls)
    }

    /// Computes the statistics of one row group's column.
    init(of column: ParquetColumnData) {
        var minBytes: [UInt8]?
        var maxBytes: [UInt8]?
        var nanCount: Int64?
        // Counted with the extremes where a pass finds them; else asked.
        var nulls: Int?
        switch column {
        case .boolean(let values):
            let present = values.compactMap { $0 }
            if !present.isEmpty {
                minBytes = [present.contains(false) ? 0 : 1]
                maxBytes = [present.contains(true) ? 1 : 0]
            }
        case .int32(let values):
            let survey = Self.survey(values)
            nulls = survey.nulls
            if let (low, high) = survey.extremes {
                minBytes = ParquetPlainEncoder.bytes(of: low)
                maxBytes = ParquetPlainEncoder.bytes(of: high)
            }
        case .int64(let values):
            let survey = Self.survey(values)
            nulls = survey.nulls
            if let (low, high) = survey.extremes {
                minBytes = ParquetPlainEncoder.bytes(of: low)
                maxBytes = ParquetPlainEncoder.bytes(of: high)
            }
        case .double(let values):
            var low = Double.infinity
            var high = -Double.infinity
            var nans: Int64 = 0
            var seen = false
            var nullRows = 0
            for value in values {
                guard let value else {
                    nullRows += 1
                    continue
                }
                if value.isNaN {
                    nans += 1
                    continue
                }
                seen = true
                low = Swift.min(low, value)
                high = Swift.max(high, value)
            }
            nanCount = nans
            nulls = nullRows
            if seen {
                // The format's rule for zeros: a zero minimum is written -0.0, a zero maximum +0.0.
                if low == 0 { low = -0.0 }
                if high == 0 { high = 0.0 }
                minBytes = ParquetPlainEncoder.bytes(of: low)
                maxBytes = ParquetPlainEncoder.bytes(of: high)
            }
        case .string(let values):
            var low: String?
            var high: String?
            for case let value? in values {
                if let current = low {
                    if bytesLess(value, current) { low = value }
                } else {
                    low = value
                }
                if let current = high {
                    if bytesLess(current, value) { high = value }
                } else {
                    high = value
                }
            }
            minBytes = low.map { Array($0.utf8) }
            maxBytes = high.map { Array($0.utf8) }
        case .utf8(let column):
            // Compared in place (`byteStringExtremes`), copied out once.
            let extremes = byteStringExtremes(
                bytes: column.bytes, ends: column.ends, nulls: column.nulls, repeated: column.repeated)
            minBytes = extremes.map { Array(column.bytes[$0.min]) }
            maxBytes = extremes.map { Array(column.bytes[$0.max]) }
        }
        self.init(
            nullCount: Int64(nulls ?? column.nullCount), minBytes: minBytes, maxBytes: maxBytes, nanCount: nanCount)
    }

    init(thrift: ThriftStruct) {
        self.init(
            nullCount: thrift.integer(3) ?? 0,
            minBytes: thrift.binary(6),
            maxBytes: thrift.binary(5),
            nanCount: thrift.integer(9)
        )
    }

    func write(to thrift: inout ThriftCompactWriter) {
        thrift.writeI64(field: 3, nullCount)
        if let maxBytes { thrift.writeBinary(field: 5, maxBytes) }
        if let minBytes { thrift.writeBinary(field: 6, minBytes) }
        if maxBytes != nil { thrift.writeBool(field: 7, true) }  // is_max_value_exact: never truncated
        if minBytes != nil { thrift.writeBool(field: 8, true) }
        if let nanCount { thrift.writeI64(field: 9, nanCount) }
    }

    private static func decode(_ bytes: [UInt8], _ type: ParquetType) -> ParquetScalar? {
        switch type.physicalType {
        case .boolean:
            return bytes.count == 1 ? .boolean(bytes[0] != 0) : nil
        case .int32:
            return bytes.count == 4
                ? .int32(Int32(truncatingIfNeeded: ParquetPlainDecoder.littleEndian(bytes, 0, 4))) : nil
        case .int64:
            return bytes.count == 8 ? .int64(Int64(bitPattern: ParquetPlainDecoder.littleEndian(bytes, 0, 8))) : nil
        case .double:
            return bytes.count == 8 ? .double(Double(bitPattern: ParquetPlainDecoder.littleEndian(bytes, 0, 8))) : nil
        case .byteArray:
            return .string(String(decoding: bytes, as: UTF8.self))
        }
    }
}
