/// PLAIN encoding of non-NULL values (NULLs live only in definition levels):
/// booleans one bit each, LSB first; fixed-width numbers little-endian;
/// byte arrays as a 4-byte little-endian length then the bytes.
enum ParquetPlainEncoder {
    /// Appends the PLAIN encoding of the non-NULL values in `rows`. Fixed-width
    /// values and byte arrays are written into room sized once (`ByteCopy`):
    /// appending byte by byte was most of the encoding time.
    static func encode(_ column: ParquetColumnData, rows: Range<Int>, into bytes: inout [UInt8]) {
        switch column {
        case .boolean(let values):
            var current: UInt8 = 0
            var bitIndex = 0
            for case let value? in values[rows] {
                if value { current |= 1 << UInt8(bitIndex) }
                bitIndex += 1
                if bitIndex == 8 {
                    bytes.append(current)
                    current = 0
                    bitIndex = 0
                }
            }
            if bitIndex > 0 { bytes.append(current) }
        case .int32(let values):
            ByteCopy.appendWords(values[rows], into: &bytes) { UInt32(bitPattern: $0).littleEndian }
        case .int64(let values):
            ByteCopy.appendWords(values[rows], into: &bytes) { UInt64(bitPattern: $0).littleEndian }
        case .double(let values):
            ByteCopy.appendWords(values[rows], into: &bytes) { $0.bitPattern.littleEndian }
        case .string(let values):
            for case let value? in values[rows] {
                appendLittleEndian(UInt64(value.utf8.count), width: 4, &bytes)
                bytes.append(contentsOf: value.utf8)
            }
        case .utf8(let column):
            ByteCopy.appendLengthPrefixed(column, rows: rows, into: &bytes)
        }
    }

    static func bytes(of value: Int32) -> [UInt8] {
        var bytes: [UInt8] = []
        appendLittleEndian(UInt64(UInt32(bitPattern: value)), width: 4, &bytes)
        return bytes
    }

    static func bytes(of value: Int64) -> [UInt8] {
        var bytes: [UInt8] = []
        appendLittleEndian(UInt64(bitPattern: value), width: 8, &bytes)
        return bytes
    }

    static func bytes(of value: Double) -> [UInt8] {
        var bytes: [UInt8] = []
        appendLittleEndian(value.bitPattern, width: 8, &bytes)
        return bytes
    }

    @inline(__always)
    static func appendLittleEndian(_ value: UInt64, width: Int, _ bytes: inout [UInt8]) {
        for byteIndex in 0..<width {
            bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(8 * byteIndex)))
        }
    }
}

/// Decodes PLAIN values back into a column, placing NULLs where the
/// definition levels say so.
enum ParquetPlainDecoder {
    struct Failure: Error, Sendable { var detail: String }

    /// Decodes `bytes[start...]` for `defined.count` rows, where `defined[row]`
    /// tells whether the row has a value.
    static func decode(
        _ type: ParquetPhysicalType,
        bytes: [UInt8],
        start: Int,
        defined: [Bool]
    ) throws(Failure) -> ParquetColumnData {
        let valueCount = defined.reduce(0) { $0 + ($1 ? 1 : 0) }
        var position = start
        func need(_ count: Int) throws(Failure) {
            guard count <= bytes.count - position else {
                throw Failure(detail: "page data ends early: need \(count) more bytes at \(position) of \(bytes.count)")
            }
        }
        switch type {
        case .boolean:
            try need((valueCount + 7) / 8)
            var valueIndex = 0
            let values: [Bool?] = defined.map { isDefined in
                guard isDefined else { return nil }
                defer { valueIndex += 1 }
                return bytes[position + valueIndex / 8] >> UInt8(valueIndex % 8) & 1 == 1
            }
            return .boolean(values)
        case .int32:
            try need(valueCount * 4)
            var values: [Int32?] = []
            values.reserveCapacity(defined.count)
            for isDefined in defined {
                if isDefined {
                    values.append(Int32(truncatingIfNeeded: littleEndian(bytes, position, 4)))
                    position += 4
                } else {
                    values.append(nil)
                }
            }
            return .int32(values)
        case .int64, .double:
            try need(valueCount * 8)
            var integers: [Int64?] = []
            integers.reserveCapacity(defined.count)
            for isDefined in defined {
                if isDefined {
                    integers.append(Int64(bitPattern: littleEndian(bytes, position, 8)))
                    position += 8
                } else {
                    integers.append(nil)
                }
            }
            if type == .double {
                return .double(integers.map { $0.map { Double(bitPattern: UInt64(bitPattern: $0)) } })
            }
            return .int64(integers)
        case .byteArray:
            var values: [String?] = []
            values.reserveCapacity(defined.count)
            for isDefined in defined {
                guard isDefined else {
                    values.append(nil)
                    continue
                }
                try need(4)
                let length = Int(littleEndian(bytes, position, 4))
                position += 4
                try need(length)
                values.append(String(decoding: bytes[position..<position + length], as: UTF8.self))
                position += length
            }
            return .string(values)
        }
    }

    @inline(__always)
    static func littleEndian(_ bytes: [UInt8], _ start: Int, _ width: Int) -> UInt64 {
        var value: UInt64 = 0
        for byteIndex in 0..<width {
            value |= UInt64(bytes[start + byteIndex]) << UInt64(8 * byteIndex)
        }
        return value
    }
}
