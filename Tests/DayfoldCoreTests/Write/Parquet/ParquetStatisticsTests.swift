import Testing

@testable import DayfoldCore

@Suite struct ParquetStatisticsTests {
    private func statistics(_ column: ParquetColumnData, _ type: ParquetType) throws -> ParquetColumnStatistics {
        let directory = try ParquetTestDirectory()
        let field = ParquetField(name: "value", type: type, nullable: true)
        let path = try writeParquetFile(in: directory, fields: [field], groups: [[column]])
        let info = try ParquetFileInfo.read(path: path)
        return try #require(info.rowGroups.first?.statistics.first ?? nil)
    }

    @Test func integersUseSignedOrder() throws {
        let stats = try statistics(.int32([5, -7, nil, 300, nil]), .int32)
        #expect(stats.min(as: .int32) == .int32(-7))
        #expect(stats.max(as: .int32) == .int32(300))
        #expect(stats.nullCount == 2)
        #expect(stats.minBytes == [0xF9, 0xFF, 0xFF, 0xFF])  // -7, little-endian
    }

    @Test func datesAndTimestampsUseSignedOrder() throws {
        let dates = try statistics(.int32([20_000, -1, 19_000]), .date)
        #expect(dates.min(as: .date) == .int32(-1))
        #expect(dates.max(as: .date) == .int32(20_000))
        let times = try statistics(.int64([1_772_954_100_000_000, -5, nil]), .timestampMicros)
        #expect(times.min(as: .timestampMicros) == .int64(-5))
        #expect(times.max(as: .timestampMicros) == .int64(1_772_954_100_000_000))
        #expect(times.nullCount == 1)
    }

    @Test func stringsCompareByUnsignedBytes() throws {
        // Byte order, not Swift's String order: "Z" (0x5A) < "a" (0x61) < "é" (0xC3 0xA9).
        let stats = try statistics(.string(["a", "é", nil, "Z", "ab"]), .string)
        #expect(stats.min(as: .string) == .string("Z"))
        #expect(stats.max(as: .string) == .string("é"))
        #expect(stats.maxBytes == [0xC3, 0xA9])
    }

    @Test func doublesSkipNaNAndNormaliseZeros() throws {
        let stats = try statistics(.double([.nan, 0.0, 2.5, nil, -0.0]), .double)
        #expect(stats.nanCount == 1)
        #expect(stats.max(as: .double) == .double(2.5))
        let minimum = try #require(stats.min(as: .double))
        guard case .double(let low) = minimum else {
            Issue.record("not a double")
            return
        }
        #expect(low == 0 && low.sign == .minus)

        let zeros = try statistics(.double([0.0, -0.0]), .double)
        guard case .double(let high)? = zeros.max(as: .double) else {
            Issue.record("no max")
            return
        }
        #expect(high == 0 && high.sign == .plus)

        let allNaN = try statistics(.double([.nan, nil]), .double)
        #expect(allNaN.minBytes == nil && allNaN.maxBytes == nil)
        #expect(allNaN.nanCount == 1)
    }

    @Test func booleansOrderFalseBeforeTrue() throws {
        let mixed = try statistics(.boolean([true, nil, false]), .boolean)
        #expect(mixed.min(as: .boolean) == .boolean(false))
        #expect(mixed.max(as: .boolean) == .boolean(true))
        let allTrue = try statistics(.boolean([true, true]), .boolean)
        #expect(allTrue.min(as: .boolean) == .boolean(true))
    }

    @Test func allNullColumnHasCountButNoBounds() throws {
        let stats = try statistics(.int64([nil, nil, nil]), .int64)
        #expect(stats.nullCount == 3)
        #expect(stats.minBytes == nil && stats.maxBytes == nil)
    }

    @Test func eachRowGroupHasItsOwnStatistics() throws {
        let directory = try ParquetTestDirectory()
        let fields = [ParquetField(name: "n", type: .int64, nullable: false)]
        let path = try writeParquetFile(
            in: directory, fields: fields, groups: [[.int64([1, 2])], [.int64([10, 20])]])
        let info = try ParquetFileInfo.read(path: path)
        #expect(info.rowGroups.map { $0.statistics[0]?.min(as: .int64) } == [.int64(1), .int64(10)])
        #expect(info.rowGroups.map { $0.statistics[0]?.max(as: .int64) } == [.int64(2), .int64(20)])
    }
}
