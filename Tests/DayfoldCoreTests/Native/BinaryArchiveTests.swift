import Foundation
import Testing

@testable import DayfoldCore

/// `BinaryArchiveWriter` / `BinaryArchiveReader`: what is written reads back
/// the same, and a file that is cut, changed or lies about its counts is an
/// error, never a crash or a huge allocation.
@Suite struct BinaryArchiveTests {
    struct Pair: BitwiseCopyable, Equatable {
        var left: Int32
        var right: Double
    }

    /// Writes a small archive with every kind of piece; returns its path.
    static func written(in folder: URL, large: Int = 100_000) throws -> (path: String, check: String) {
        let path = folder.appendingPathComponent("archive.bin").path
        var writer = try BinaryArchiveWriter(path: path)
        writer.write(42)
        writer.write(Int32(-7))
        writer.write(2.5)
        writer.write(true)
        writer.write("zürich")
        writer.write(nil as String?)
        writer.write(["", "a", "bc"])
        writer.write(plain: Pair(left: 1, right: -0.0))
        try writer.write(plain: [Pair(left: 3, right: 4), Pair(left: 5, right: .infinity)])
        try writer.write(plain: (0..<large).map { Int64($0 &* 2_654_435_761) })
        writer.write(UInt64.max)
        return (path, try writer.finish())
    }

    @Test func everyPieceReadsBackAsWritten() throws {
        let folder = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (path, check) = try Self.written(in: folder)
        #expect(!check.isEmpty)
        var reader = try BinaryArchiveReader(path: path)
        defer { reader.close() }
        #expect(try reader.readInt() == 42)
        #expect(try reader.readInt32() == -7)
        #expect(try reader.readDouble() == 2.5)
        #expect(try reader.readBool())
        #expect(try reader.readString() == "zürich")
        #expect(try reader.readOptionalString() == nil)
        #expect(try reader.readStrings() == ["", "a", "bc"])
        #expect(try reader.readPlain(Pair.self) == Pair(left: 1, right: -0.0))
        #expect(try reader.readPlainArray(Pair.self) == [Pair(left: 3, right: 4), Pair(left: 5, right: .infinity)])
        #expect(try reader.readPlainArray(Int64.self) == (0..<100_000).map { Int64($0 &* 2_654_435_761) })
        #expect(try reader.readUInt64() == UInt64.max)
        try reader.finish()
    }

    /// One byte changed anywhere (in a scalar, in a large array read straight
    /// into place) fails the check; a byte cut off fails before it.
    @Test(arguments: [0, 9, 30, 200, 400_000])
    func aChangedByteFailsTheCheck(offset: Int) throws {
        let folder = try TestPaths.temporaryDirectory("changed\(offset)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (path, _) = try Self.written(in: folder)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        bytes[offset] ^= 0x10
        try bytes.write(to: URL(fileURLWithPath: path))
        #expect(throws: BinaryArchiveError.self) { try Self.readAll(path) }
    }

    @Test(arguments: [1, 8, 17, 100_000])
    func aCutFileIsAnErrorNotACrash(cut: Int) throws {
        let folder = try TestPaths.temporaryDirectory("cut\(cut)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (path, _) = try Self.written(in: folder)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        try bytes.prefix(bytes.count - cut).write(to: URL(fileURLWithPath: path))
        #expect(throws: BinaryArchiveError.self) { try Self.readAll(path) }
    }

    /// A count larger than the file could hold is refused before anything is allocated.
    @Test func aCountBeyondTheFileIsRefused() throws {
        let folder = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("lying.bin").path
        var writer = try BinaryArchiveWriter(path: path)
        writer.write(Int.max / 2)
        _ = try writer.finish()
        var reader = try BinaryArchiveReader(path: path)
        defer { reader.close() }
        #expect(throws: BinaryArchiveError.self) { _ = try reader.readPlainArray(Int64.self) }
    }

    /// An array read back as another type of another stride is refused.
    @Test func anArrayOfAnotherStrideIsRefused() throws {
        let folder = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("stride.bin").path
        var writer = try BinaryArchiveWriter(path: path)
        try writer.write(plain: [Int32(1), 2, 3])
        _ = try writer.finish()
        var reader = try BinaryArchiveReader(path: path)
        defer { reader.close() }
        #expect(throws: BinaryArchiveError.self) { _ = try reader.readPlainArray(Int64.self) }
    }

    static func readAll(_ path: String) throws {
        var reader = try BinaryArchiveReader(path: path)
        defer { reader.close() }
        _ = try reader.readInt()
        _ = try reader.readInt32()
        _ = try reader.readDouble()
        _ = try reader.readBool()
        _ = try reader.readString()
        _ = try reader.readOptionalString()
        _ = try reader.readStrings()
        _ = try reader.readPlain(Pair.self)
        _ = try reader.readPlainArray(Pair.self)
        _ = try reader.readPlainArray(Int64.self)
        _ = try reader.readUInt64()
        try reader.finish()
    }
}
