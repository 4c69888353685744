/// A decoded Thrift compact value. Parquet footers are small, so the reader
/// decodes a whole struct into this tree and the metadata types pick the
/// fields they know; unknown fields are kept but ignored, as Thrift intends.
indirect enum ThriftValue: Sendable {
    case bool(Bool)
    case integer(Int64)
    case double(Double)
    case binary([UInt8])
    case list([ThriftValue])
    case map([(key: ThriftValue, value: ThriftValue)])
    case structure(ThriftStruct)
}

/// A decoded Thrift struct: its fields by id.
struct ThriftStruct: Sendable {
    var fields: [Int16: ThriftValue] = [:]

    func has(_ field: Int16) -> Bool { fields[field] != nil }

    func integer(_ field: Int16) -> Int64? {
        if case .integer(let value)? = fields[field] { return value }
        return nil
    }

    func bool(_ field: Int16) -> Bool? {
        if case .bool(let value)? = fields[field] { return value }
        return nil
    }

    func binary(_ field: Int16) -> [UInt8]? {
        if case .binary(let value)? = fields[field] { return value }
        return nil
    }

    func string(_ field: Int16) -> String? {
        binary(field).map { String(decoding: $0, as: UTF8.self) }
    }

    func structure(_ field: Int16) -> ThriftStruct? {
        if case .structure(let value)? = fields[field] { return value }
        return nil
    }

    func list(_ field: Int16) -> [ThriftValue]? {
        if case .list(let value)? = fields[field] { return value }
        return nil
    }

    /// The first field set in a union (Thrift unions hold exactly one).
    var unionMember: (field: Int16, value: ThriftValue)? {
        fields.min { $0.key < $1.key }.map { ($0.key, $0.value) }
    }
}

/// What was wrong with compact-protocol bytes, and where.
struct ThriftDecodeError: Error, Sendable, CustomStringConvertible {
    var offset: Int
    var detail: String
    var description: String { "thrift byte \(offset): \(detail)" }
}

/// Decodes compact-protocol bytes starting at `position`; after
/// `readStruct()` returns, `position` is just past the struct, which is how
/// the page reader finds where a page's data begins.
struct ThriftCompactReader: Sendable {
    private let bytes: [UInt8]
    private(set) var position: Int
    private var depth = 0
    private static let maximumDepth = 64

    init(bytes: [UInt8], position: Int = 0) {
        self.bytes = bytes
        self.position = position
    }

    mutating func readStruct() throws -> ThriftStruct {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maximumDepth else { throw failure("structs nested deeper than \(Self.maximumDepth)") }
        var result = ThriftStruct()
        var lastFieldID: Int16 = 0
        while true {
            let header = try readByte()
            if header == 0 { return result }
            let typeNibble = header & 0x0F
            let delta = header >> 4
            let fieldID: Int16
            if delta != 0 {
                fieldID = lastFieldID &+ Int16(delta)
            } else {
                let raw = try readZigzag()
                guard let id = Int16(exactly: raw) else { throw failure("field id \(raw) out of range") }
                fieldID = id
            }
            lastFieldID = fieldID
            guard let type = ThriftCompactType(rawValue: typeNibble) else {
                throw failure("unknown field type \(typeNibble)")
            }
            switch type {
            case .booleanTrue: result.fields[fieldID] = .bool(true)
            case .booleanFalse: result.fields[fieldID] = .bool(false)
            default: result.fields[fieldID] = try readValue(type)
            }
        }
    }

    private mutating func readValue(_ type: ThriftCompactType) throws -> ThriftValue {
        switch type {
        case .booleanTrue, .booleanFalse:
            // Inside lists and maps a bool is one byte: 1 is true.
            return .bool(try readByte() == 1)
        case .byte:
            return .integer(Int64(Int8(bitPattern: try readByte())))
        case .i16, .i32, .i64:
            return .integer(try readZigzag())
        case .double:
            var bits: UInt64 = 0
            for index in 0..<8 { bits |= UInt64(try readByte()) << UInt64(8 * index) }
            return .double(Double(bitPattern: bits))
        case .binary:
            let count = try readLength()
            guard count <= bytes.count - position else { throw failure("binary of \(count) bytes runs past the end") }
            defer { position += count }
            return .binary(Array(bytes[position..<position + count]))
        case .list, .set:
            let header = try readByte()
            var count = Int(header >> 4)
            if count == 15 { count = try readLength() }
            guard let elementType = ThriftCompactType(rawValue: header & 0x0F) else {
                throw failure("unknown list element type \(header & 0x0F)")
            }
            // Every element takes at least one byte: reject impossible counts before allocating.
            guard count <= bytes.count - position else { throw failure("list of \(count) runs past the end") }
            var elements: [ThriftValue] = []
            elements.reserveCapacity(count)
            for _ in 0..<count { elements.append(try readValue(elementType)) }
            return .list(elements)
        case .map:
            let count = try readLength()
            guard count > 0 else { return .map([]) }
            let types = try readByte()
            guard let keyType = ThriftCompactType(rawValue: types >> 4),
                let valueType = ThriftCompactType(rawValue: types & 0x0F)
            else { throw failure("unknown map types \(types)") }
            guard count <= bytes.count - position else { throw failure("map of \(count) runs past the end") }
            var entries: [(key: ThriftValue, value: ThriftValue)] = []
            for _ in 0..<count {
                let key = try readValue(keyType)
                entries.append((key, try readValue(valueType)))
            }
            return .map(entries)
        case .structure:
            return .structure(try readStruct())
        }
    }

    private mutating func readByte() throws -> UInt8 {
        guard position < bytes.count else { throw failure("unexpected end of data") }
        defer { position += 1 }
        return bytes[position]
    }

    private mutating func readVarint() throws -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let byte = try readByte()
            guard shift < 64 else { throw failure("varint longer than 10 bytes") }
            result |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return result }
            shift += 7
        }
    }

    private mutating func readZigzag() throws -> Int64 {
        let raw = try readVarint()
        return Int64(bitPattern: raw >> 1) ^ -Int64(bitPattern: raw & 1)
    }

    private mutating func readLength() throws -> Int {
        let raw = try readVarint()
        guard let length = Int(exactly: raw), length <= Int(Int32.max) else { throw failure("length \(raw) too large") }
        return length
    }

    private func failure(_ detail: String) -> ThriftDecodeError {
        ThriftDecodeError(offset: position, detail: detail)
    }
}
