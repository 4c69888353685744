/// A Thrift `SchemaElement`: the root group (name `schema`, one child per
/// field) or a leaf column. Leaves carry both the logical type and the
/// matching converted type, as the format asks, so old and new readers agree.
struct ParquetSchemaElement: Sendable, Equatable {
    var name: String
    /// nil for the root group.
    var field: ParquetField?
    var childCount: Int32?

    static func root(childCount: Int) -> ParquetSchemaElement {
        ParquetSchemaElement(name: "schema", field: nil, childCount: Int32(clamping: childCount))
    }

    static func leaf(_ field: ParquetField) -> ParquetSchemaElement {
        ParquetSchemaElement(name: field.name, field: field, childCount: nil)
    }

    func write(to thrift: inout ThriftCompactWriter) {
        if let field {
            thrift.writeI32(field: 1, field.type.physicalType.rawValue)
            thrift.writeI32(field: 3, field.nullable ? 1 : 0)  // OPTIONAL : REQUIRED
            thrift.writeString(field: 4, name)
            if let converted = field.type.convertedType {
                thrift.writeI32(field: 6, converted.rawValue)
            }
            switch field.type {
            case .string:
                thrift.writeStruct(field: 10) { $0.writeStruct(field: 1) { _ in } }
            case .date:
                thrift.writeStruct(field: 10) { $0.writeStruct(field: 6) { _ in } }
            case .timestampMicros:
                thrift.writeStruct(field: 10) { logical in
                    logical.writeStruct(field: 8) { timestamp in
                        timestamp.writeBool(field: 1, true)
                        timestamp.writeStruct(field: 2) { $0.writeStruct(field: 2) { _ in } }
                    }
                }
            case .boolean, .int32, .int64, .double:
                break
            }
        } else {
            thrift.writeString(field: 4, name)
            if let childCount { thrift.writeI32(field: 5, childCount) }
        }
    }

    /// Decodes an element; leaves must be flat columns of a type dayfold writes.
    init(thrift: ThriftStruct) throws(ParquetMetadataError) {
        guard let name = thrift.string(4) else { throw ParquetMetadataError("schema element without a name") }
        self.name = name
        if let children = thrift.integer(5) {
            self.field = nil
            self.childCount = Int32(clamping: children)
            return
        }
        self.childCount = nil
        guard let rawType = thrift.integer(1) else {
            throw ParquetMetadataError("schema element \"\(name)\" has neither a type nor children")
        }
        guard let physical = Int32(exactly: rawType).flatMap(ParquetPhysicalType.init(rawValue:)) else {
            throw ParquetMetadataError(
                "column \"\(name)\" has physical type \(rawType), which this reader does not read")
        }
        let repetition = thrift.integer(3) ?? 0
        guard repetition == 0 || repetition == 1 else {
            throw ParquetMetadataError("column \"\(name)\" is repeated; only flat schemas are read")
        }
        let type = try Self.type(physical: physical, thrift: thrift, name: name)
        self.field = ParquetField(name: name, type: type, nullable: repetition == 1)
    }

    private init(name: String, field: ParquetField?, childCount: Int32?) {
        self.name = name
        self.field = field
        self.childCount = childCount
    }

    private static func type(
        physical: ParquetPhysicalType,
        thrift: ThriftStruct,
        name: String
    ) throws(ParquetMetadataError) -> ParquetType {
        let logical = thrift.structure(10)?.unionMember?.field
        let converted = thrift.integer(6)
        switch physical {
        case .boolean: return .boolean
        case .double: return .double
        case .byteArray: return .string
        case .int32:
            return logical == 6 || converted == Int64(ParquetConvertedType.date.rawValue) ? .date : .int32
        case .int64:
            if logical == 8 {
                guard case .structure(let timestamp)? = thrift.structure(10)?.fields[8],
                    timestamp.structure(2)?.unionMember?.field == 2
                else { throw ParquetMetadataError("column \"\(name)\" is a timestamp in a unit other than MICROS") }
                return .timestampMicros
            }
            return converted == Int64(ParquetConvertedType.timestampMicros.rawValue) ? .timestampMicros : .int64
        }
    }
}

/// A metadata decoding failure; the file reader adds the path.
struct ParquetMetadataError: Error, Sendable, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
