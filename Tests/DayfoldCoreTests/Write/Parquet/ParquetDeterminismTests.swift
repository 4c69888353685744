import Foundation
import Testing

@testable import DayfoldCore

@Suite struct ParquetDeterminismTests {
    private func sampleGroups(seed: UInt64) -> [[ParquetColumnData]] {
        var random = ParquetTestRandom(state: seed)
        return (0..<3).map { _ in
            let rows = 500
            return [
                .boolean((0..<rows).map { _ in random.next() % 3 == 0 ? nil : random.next() % 2 == 0 }),
                .int32((0..<rows).map { _ in Int32(truncatingIfNeeded: random.next()) }),
                .int32((0..<rows).map { _ in random.next() % 9 == 0 ? nil : Int32(random.next() % 30_000) }),
                .int64((0..<rows).map { _ in Int64(bitPattern: random.next()) }),
                .int64((0..<rows).map { _ in random.next() % 4 == 0 ? nil : Int64(random.next() >> 12) }),
                .double((0..<rows).map { _ in Double(random.next() % 1_000_000) / 1_000 }),
                .string((0..<rows).map { _ in random.next() % 5 == 0 ? nil : "client-\(random.next() % 1_000)" }),
            ]
        }
    }

    @Test func sameInputGivesIdenticalBytes() throws {
        let directory = try ParquetTestDirectory()
        let first = try writeParquetFile(
            in: directory, name: "a.parquet", fields: parquetEveryTypeFields, groups: sampleGroups(seed: 11))
        let second = try writeParquetFile(
            in: directory, name: "b.parquet", fields: parquetEveryTypeFields, groups: sampleGroups(seed: 11))
        let firstBytes = try Data(contentsOf: URL(fileURLWithPath: first))
        #expect(firstBytes == (try Data(contentsOf: URL(fileURLWithPath: second))))
        #expect(firstBytes.prefix(4) == Data("PAR1".utf8))
        #expect(firstBytes.suffix(4) == Data("PAR1".utf8))
    }

    @Test func differentInputGivesDifferentBytes() throws {
        let directory = try ParquetTestDirectory()
        let first = try writeParquetFile(
            in: directory, name: "a.parquet", fields: parquetEveryTypeFields, groups: sampleGroups(seed: 1))
        let second = try writeParquetFile(
            in: directory, name: "b.parquet", fields: parquetEveryTypeFields, groups: sampleGroups(seed: 2))
        #expect(try Data(contentsOf: URL(fileURLWithPath: first)) != Data(contentsOf: URL(fileURLWithPath: second)))
    }

    @Test func rewritingAPathReplacesTheOldFile() throws {
        let directory = try ParquetTestDirectory()
        let fields = [ParquetField(name: "n", type: .int32, nullable: false)]
        _ = try writeParquetFile(in: directory, fields: fields, groups: [[.int32(Array(0..<10_000))]])
        let path = try writeParquetFile(in: directory, fields: fields, groups: [[.int32([1])]])
        let info = try ParquetFileInfo.read(path: path)
        #expect(info.rowCount == 1)
    }
}
