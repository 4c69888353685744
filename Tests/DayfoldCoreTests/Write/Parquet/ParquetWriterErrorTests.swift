import Foundation
import Testing

@testable import DayfoldCore

@Suite struct ParquetWriterErrorTests {
    private let fields = [
        ParquetField(name: "id", type: .string, nullable: false),
        ParquetField(name: "steps", type: .int64, nullable: true),
    ]

    private func expectInvalid(_ columns: [ParquetColumnData], mentioning text: String) throws {
        let directory = try ParquetTestDirectory()
        let writer = try ParquetFileWriter(path: directory.path("bad.parquet"), fields: fields)
        do {
            try writer.writeRowGroup(columns)
            Issue.record("expected an error mentioning \(text)")
        } catch let error as ParquetError {
            #expect(error.kind == .invalidArgument)
            #expect(error.description.contains(text))
            #expect(error.description.contains("bad.parquet"))
        }
    }

    @Test func mismatchedLengthsAreRejected() throws {
        try expectInvalid([.string(["a", "b"]), .int64([1])], mentioning: "has 1 rows, expected 2")
    }

    @Test func wrongColumnCountIsRejected() throws {
        try expectInvalid([.string(["a"])], mentioning: "got 1 columns for 2 fields")
    }

    @Test func wrongValueTypeIsRejected() throws {
        try expectInvalid([.string(["a"]), .double([1])], mentioning: "column \"steps\"")
    }

    @Test func nullInRequiredColumnIsRejected() throws {
        try expectInvalid([.string(["a", nil]), .int64([1, 2])], mentioning: "not nullable but holds 1 NULLs")
        // A required number column too; the row group is not written, so
        // the file takes the next one as its first.
        let directory = try ParquetTestDirectory()
        let path = directory.path("required.parquet")
        let writer = try ParquetFileWriter(
            path: path, fields: [ParquetField(name: "count", type: .int64, nullable: false)])
        #expect(throws: ParquetError.self) { try writer.writeRowGroup([.int64([1, nil, nil])]) }
        try writer.writeRowGroup([.int64([4, 5])])
        try writer.close()
        let info = try ParquetFileInfo.read(path: path)
        #expect(info.rowGroups.count == 1)
        #expect(try info.readColumns(path: path, limit: 10) == [.int64([4, 5])])
    }

    @Test func badSchemasAreRejected() throws {
        let directory = try ParquetTestDirectory()
        #expect(throws: ParquetError.self) { try ParquetFileWriter(path: directory.path("a.parquet"), fields: []) }
        let twice = [
            ParquetField(name: "x", type: .int32, nullable: false),
            ParquetField(name: "x", type: .int64, nullable: false),
        ]
        #expect(throws: ParquetError.self) { try ParquetFileWriter(path: directory.path("b.parquet"), fields: twice) }
        let single = [ParquetField(name: "x", type: .int32, nullable: false)]
        #expect(throws: ParquetError.self) {
            try ParquetFileWriter(path: directory.path("missing/dir/c.parquet"), fields: single)
        }
    }

    @Test func closedWriterRefusesMoreWork() throws {
        let directory = try ParquetTestDirectory()
        let writer = try ParquetFileWriter(path: directory.path("c.parquet"), fields: fields)
        try writer.close()
        #expect(throws: ParquetError.self) { try writer.writeRowGroup([.string(["a"]), .int64([nil])]) }
        #expect(throws: ParquetError.self) { try writer.close() }
    }

    @Test func unclosedOrDamagedFilesAreReportedNotCrashed() throws {
        let directory = try ParquetTestDirectory()
        let path = directory.path("open.parquet")
        let writer = try ParquetFileWriter(path: path, fields: fields)
        try writer.writeRowGroup([.string(["a"]), .int64([1])])
        #expect(throws: ParquetError.self) { try ParquetFileInfo.read(path: path) }
        try writer.close()

        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let footerLength = Int(bytes[bytes.count - 8]) | Int(bytes[bytes.count - 7]) << 8
        for index in (bytes.count - 8 - footerLength)..<(bytes.count - 8) { bytes[index] = 0xFF }
        let damaged = directory.path("damaged.parquet")
        try Data(bytes).write(to: URL(fileURLWithPath: damaged))
        #expect(throws: ParquetError.self) { try ParquetFileInfo.read(path: damaged) }
        #expect(throws: ParquetError.self) { try ParquetFileInfo.read(path: directory.path("absent.parquet")) }
    }
}
