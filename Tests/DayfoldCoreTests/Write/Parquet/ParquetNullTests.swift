import Testing

@testable import DayfoldCore

@Suite struct ParquetNullTests {
    static let patterns: [[Bool]] = [
        [],
        [true],
        [false],
        Array(repeating: true, count: 100),
        Array(repeating: false, count: 100),
        (0..<101).map { $0 % 2 == 0 },
        (0..<37).map { $0 % 3 != 0 },
        Array(repeating: true, count: 5) + Array(repeating: false, count: 30) + [true, false, true],
        (0..<1_000).map { ($0 / 9) % 2 == 0 },
        Array(repeating: false, count: 7) + Array(repeating: true, count: 9) + Array(repeating: false, count: 8),
    ]

    @Test(arguments: patterns)
    func definitionLevelsRoundTrip(levels: [Bool]) throws {
        let encoded = ParquetLevelEncoder.encode(levels)
        let decoded = try ParquetLevelDecoder.decode(encoded, range: 0..<encoded.count, count: levels.count)
        #expect(decoded == levels)
    }

    @Test func longRunsBecomeSingleRLERuns() {
        // 1000 present values: header varint(1000 << 1) = 2 bytes, then the value byte.
        #expect(ParquetLevelEncoder.encode(Array(repeating: true, count: 1_000)) == [0xD0, 0x0F, 0x01])
    }

    @Test(arguments: [0, 1, 7, 8, 63, 64, 127, 128, 16_383, 16_384, 131_072])
    func aRunOfEqualLevelsIsWhatEncodeWrites(count: Int) {
        for level in [true, false] {
            #expect(
                ParquetLevelEncoder.encodeRun(of: level, count: count)
                    == ParquetLevelEncoder.encode(Array(repeating: level, count: count)))
        }
    }

    @Test func alternatingLevelsAreBitPacked() {
        // 16 alternating levels: one bit-packed run of 2 groups, 0b01010101 each.
        let levels = (0..<16).map { $0 % 2 == 0 }
        #expect(ParquetLevelEncoder.encode(levels) == [0x05, 0x55, 0x55])
    }

    @Test(arguments: [0, 1, 2, 9, 100])
    func nullsLandInTheirRows(stride: Int) throws {
        let directory = try ParquetTestDirectory()
        let rowCount = 300
        func isNull(_ row: Int) -> Bool { stride == 0 ? true : row % (stride + 1) == 0 }
        let columns: [ParquetColumnData] = [
            .boolean((0..<rowCount).map { isNull($0) ? nil : $0 % 3 == 0 }),
            .int32((0..<rowCount).map { isNull($0) ? nil : Int32($0) }),
            .int32((0..<rowCount).map { isNull($0) ? nil : Int32($0 * 2) }),
            .int64((0..<rowCount).map { isNull($0) ? nil : Int64($0) * -3 }),
            .int64((0..<rowCount).map { isNull($0) ? nil : Int64($0) * 1_000_000 }),
            .double((0..<rowCount).map { isNull($0) ? nil : Double($0) / 7 }),
            .string((0..<rowCount).map { isNull($0) ? nil : "row \($0)" }),
        ]
        let path = try writeParquetFile(in: directory, fields: parquetEveryTypeFields, groups: [columns])
        let info = try ParquetFileInfo.read(path: path)
        #expect(try info.readColumns(path: path, limit: rowCount) == columns)
        let expectedNulls = Int64((0..<rowCount).filter(isNull).count)
        #expect(info.rowGroups[0].statistics.allSatisfy { $0?.nullCount == expectedNulls })
    }
}
