import Testing

@testable import DayfoldCore

@Suite struct ThriftCompactTests {
    @Test func smallFieldsUseOneHeaderByte() {
        var thrift = ThriftCompactWriter()
        thrift.writeI32(field: 1, 1)
        thrift.writeBool(field: 2, true)
        thrift.writeI64(field: 3, -1)
        thrift.writeStop()
        // delta 1, i32 (5), zigzag(1) = 2; delta 1, true (1); delta 1, i64 (6), zigzag(-1) = 1; stop.
        #expect(thrift.bytes == [0x15, 0x02, 0x11, 0x16, 0x01, 0x00])
    }

    @Test func largeFieldJumpsUseLongHeaders() throws {
        var thrift = ThriftCompactWriter()
        thrift.writeI32(field: 1, 7)
        thrift.writeI32(field: 40, -300)
        thrift.writeStop()
        #expect(thrift.bytes[2...4] == [0x05, 0x50, 0xD7])  // type alone, then zigzag(40) = 80
        var reader = ThriftCompactReader(bytes: thrift.bytes)
        let decoded = try reader.readStruct()
        #expect(decoded.integer(1) == 7)
        #expect(decoded.integer(40) == -300)
        #expect(reader.position == thrift.bytes.count)
    }

    @Test func nestedStructsListsAndStringsRoundTrip() throws {
        var thrift = ThriftCompactWriter()
        thrift.writeString(field: 1, "dayfold ✓")
        thrift.writeListHeader(field: 2, elementType: .i64, count: 20)
        for value in 0..<20 { thrift.writeI64Element(Int64(value) * -1_000_000_007) }
        thrift.writeStruct(field: 3) { inner in
            inner.writeDouble(field: 1, 2.5)
            inner.writeStruct(field: 20) { $0.writeBool(field: 1, false) }
            inner.writeBinary(field: 21, [0, 255])
        }
        thrift.writeI16(field: 4, -2)
        thrift.writeByte(field: 5, -3)
        thrift.writeStop()

        var reader = ThriftCompactReader(bytes: thrift.bytes)
        let decoded = try reader.readStruct()
        #expect(decoded.string(1) == "dayfold ✓")
        let list = try #require(decoded.list(2))
        #expect(list.count == 20)
        if case .integer(let last)? = list.last { #expect(last == -19_000_000_133) } else { Issue.record("bad list") }
        let inner = try #require(decoded.structure(3))
        if case .double(let value)? = inner.fields[1] { #expect(value == 2.5) } else { Issue.record("no double") }
        #expect(inner.structure(20)?.bool(1) == false)
        #expect(inner.binary(21) == [0, 255])
        #expect(decoded.integer(4) == -2)
        #expect(decoded.integer(5) == -3)
    }

    @Test(arguments: [[UInt8](), [0x15], [0x18, 0x05, 0x61], [0x19, 0xF5, 0xFF, 0xFF, 0xFF, 0x0F], [0x0F, 0x02]])
    func truncatedOrInvalidInputThrows(bytes: [UInt8]) {
        var reader = ThriftCompactReader(bytes: bytes)
        #expect(throws: ThriftDecodeError.self) { try reader.readStruct() }
    }

    @Test func pageHeaderRoundTrips() throws {
        let header = ParquetPageHeader(uncompressedSize: 1_048_600, compressedSize: 4_321, valueCount: 131_072)
        var reader = ThriftCompactReader(bytes: header.encoded())
        #expect(try ParquetPageHeader(thrift: reader.readStruct()) == header)
    }
}
