import Foundation
import Testing

@testable import DayfoldCore

@Suite struct ParquetRoundTripTests {
    @Test func everyTypeReadsBackThroughFileInfo() throws {
        let directory = try ParquetTestDirectory()
        let columns: [ParquetColumnData] = [
            .boolean([true, false, nil, true]),
            .int32([Int32.min, -1, 0, Int32.max]),
            .int32([0, 20_520, -719_162, nil]),
            .int64([Int64.min, nil, 0, Int64.max]),
            .int64([1_772_954_100_000_000, 1_772_954_100_250_000, nil, -1]),
            .double([-0.0, 1.5e-300, .infinity, nil]),
            .string(["c-1", "", nil, "été 日本 ✓"]),
        ]
        let path = try writeParquetFile(in: directory, fields: parquetEveryTypeFields, groups: [columns])

        let info = try ParquetFileInfo.read(path: path)
        #expect(info.fields == parquetEveryTypeFields)
        #expect(info.rowCount == 4)
        #expect(info.codec == "ZSTD")
        #expect(info.createdBy == "dayfold")
        #expect(try info.readColumns(path: path, limit: 100) == columns)
    }

    @Test func requiredColumnsReadBackWithoutLevels() throws {
        let directory = try ParquetTestDirectory()
        let fields = ParquetType.allCases.enumerated().map { index, type in
            ParquetField(name: "c\(index)", type: type, nullable: false)
        }
        let columns: [ParquetColumnData] = [
            .boolean([false, true]), .int32([1, 2]), .int32([3, 4]), .int64([5, 6]), .int64([7, 8]),
            .double([9.5, -10.25]), .string(["a", "b"]),
        ]
        let path = try writeParquetFile(in: directory, fields: fields, groups: [columns])
        let info = try ParquetFileInfo.read(path: path)
        #expect(info.fields == fields)
        #expect(try info.readColumns(path: path, limit: 2) == columns)
    }

    @Test func limitStopsAcrossRowGroups() throws {
        let directory = try ParquetTestDirectory()
        let fields = [ParquetField(name: "n", type: .int64, nullable: false)]
        let groups = (0..<3).map { group in [ParquetColumnData.int64((0..<10).map { Int64(group * 10 + $0) })] }
        let path = try writeParquetFile(in: directory, fields: fields, groups: groups)
        let info = try ParquetFileInfo.read(path: path)
        #expect(try info.readColumns(path: path, limit: 15) == [.int64((0..<15).map { Int64($0) })])
        #expect(try info.readColumns(path: path, limit: 0) == [.int64([])])
        #expect(try info.readColumns(path: path, limit: 1_000).first?.count == 30)
    }

    @Test func largeSeededColumnsSurviveManyPages() throws {
        let directory = try ParquetTestDirectory()
        var random = ParquetTestRandom(state: 7)
        let rowCount = 5_000
        let columns: [ParquetColumnData] = [
            .boolean((0..<rowCount).map { _ in random.next() % 4 == 0 ? nil : random.next() % 2 == 0 }),
            .int32((0..<rowCount).map { _ in random.next() % 5 == 0 ? nil : Int32(truncatingIfNeeded: random.next()) }),
            .int32((0..<rowCount).map { _ in Int32(random.next() % 40_000) }),
            .int64((0..<rowCount).map { _ in random.next() % 3 == 0 ? nil : Int64(bitPattern: random.next()) }),
            .int64((0..<rowCount).map { _ in Int64(bitPattern: random.next() >> 8) }),
            .double((0..<rowCount).map { _ in random.next() % 6 == 0 ? nil : Double(bitPattern: random.next() >> 2) }),
            .string(
                (0..<rowCount).map { _ in
                    random.next() % 2 == 0 ? nil : String(repeating: "x", count: Int(random.next() % 50))
                }),
        ]
        let path = directory.path("pages.parquet")
        // 512-byte pages force every column chunk into many pages.
        let writer = try ParquetFileWriter(path: path, fields: parquetEveryTypeFields, pageSizeLimit: 512)
        try writer.writeRowGroup(columns)
        try writer.close()
        let info = try ParquetFileInfo.read(path: path)
        #expect(try info.readColumns(path: path, limit: rowCount) == columns)
    }

    @Test func emptyFileHasSchemaAndNoRows() throws {
        let directory = try ParquetTestDirectory()
        let path = try writeParquetFile(in: directory, fields: parquetEveryTypeFields, groups: [])
        let info = try ParquetFileInfo.read(path: path)
        #expect(info.fields == parquetEveryTypeFields)
        #expect(info.rowCount == 0)
        #expect(info.rowGroups.isEmpty)
        #expect(try info.readColumns(path: path, limit: 10).allSatisfy { $0.count == 0 })
    }
}
