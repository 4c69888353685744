/// Encodes Thrift structs with the compact protocol (the encoding of every
/// Parquet footer and page header): zigzag varints for integers, field ids as
/// deltas packed with the type into one byte when they fit.
///
/// Callers write a struct's fields in increasing id order, then `writeStop()`:
/// ```
/// var thrift = ThriftCompactWriter()
/// thrift.writeI32(field: 1, 42)
/// thrift.writeStruct(field: 2) { $0.writeString(field: 1, "x") }
/// thrift.writeStop()
/// ```
struct ThriftCompactWriter: Sendable {
    private(set) var bytes: [UInt8] = []
    private var lastFieldID: Int16 = 0
    private var enclosingFieldIDs: [Int16] = []

    init() {}

    // MARK: fields

    mutating func writeBool(field: Int16, _ value: Bool) {
        writeFieldHeader(field, value ? .booleanTrue : .booleanFalse)
    }

    mutating func writeByte(field: Int16, _ value: Int8) {
        writeFieldHeader(field, .byte)
        bytes.append(UInt8(bitPattern: value))
    }

    mutating func writeI16(field: Int16, _ value: Int16) {
        writeFieldHeader(field, .i16)
        writeVarint(zigzag(Int64(value)))
    }

    mutating func writeI32(field: Int16, _ value: Int32) {
        writeFieldHeader(field, .i32)
        writeVarint(zigzag(Int64(value)))
    }

    mutating func writeI64(field: Int16, _ value: Int64) {
        writeFieldHeader(field, .i64)
        writeVarint(zigzag(value))
    }

    mutating func writeDouble(field: Int16, _ value: Double) {
        writeFieldHeader(field, .double)
        appendLittleEndian(value.bitPattern)
    }

    mutating func writeBinary(field: Int16, _ value: [UInt8]) {
        writeFieldHeader(field, .binary)
        writeBinaryValue(value)
    }

    mutating func writeString(field: Int16, _ value: String) {
        writeBinary(field: field, Array(value.utf8))
    }

    /// Writes a nested struct; `body` writes its fields, the stop byte is added here.
    mutating func writeStruct(field: Int16, _ body: (inout ThriftCompactWriter) -> Void) {
        writeFieldHeader(field, .structure)
        writeStructValue(body)
    }

    /// Writes a list header; the caller then writes `count` elements with the
    /// `…Element` / `writeStructValue` methods.
    mutating func writeListHeader(field: Int16, elementType: ThriftCompactType, count: Int) {
        writeFieldHeader(field, .list)
        if count < 15 {
            bytes.append(UInt8(count) << 4 | elementType.rawValue)
        } else {
            bytes.append(0xF0 | elementType.rawValue)
            writeVarint(UInt64(count))
        }
    }

    /// Ends the current struct.
    mutating func writeStop() {
        bytes.append(0)
    }

    // MARK: list elements

    mutating func writeI32Element(_ value: Int32) {
        writeVarint(zigzag(Int64(value)))
    }

    mutating func writeI64Element(_ value: Int64) {
        writeVarint(zigzag(value))
    }

    mutating func writeStringElement(_ value: String) {
        writeBinaryValue(Array(value.utf8))
    }

    /// Writes a struct that is a list element or union member value (no field header).
    mutating func writeStructValue(_ body: (inout ThriftCompactWriter) -> Void) {
        enclosingFieldIDs.append(lastFieldID)
        lastFieldID = 0
        body(&self)
        writeStop()
        lastFieldID = enclosingFieldIDs.removeLast()
    }

    // MARK: primitives

    private mutating func writeFieldHeader(_ field: Int16, _ type: ThriftCompactType) {
        let delta = Int(field) - Int(lastFieldID)
        if delta > 0 && delta <= 15 {
            bytes.append(UInt8(delta) << 4 | type.rawValue)
        } else {
            bytes.append(type.rawValue)
            writeVarint(zigzag(Int64(field)))
        }
        lastFieldID = field
    }

    private mutating func writeBinaryValue(_ value: [UInt8]) {
        writeVarint(UInt64(value.count))
        bytes.append(contentsOf: value)
    }

    private mutating func writeVarint(_ value: UInt64) {
        var remaining = value
        while remaining >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: remaining) | 0x80)
            remaining >>= 7
        }
        bytes.append(UInt8(remaining))
    }

    private mutating func appendLittleEndian(_ value: UInt64) {
        for shift in stride(from: 0, to: 64, by: 8) {
            bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
        }
    }

    private func zigzag(_ value: Int64) -> UInt64 {
        UInt64(bitPattern: (value << 1) ^ (value >> 63))
    }
}
