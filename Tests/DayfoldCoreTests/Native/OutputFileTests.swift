import Foundation
import Testing

@testable import DayfoldCore
@testable import DayfoldGenerate

/// An output file holds exactly the bytes written, whatever their lengths
/// against the direct-I/O block (4096) and buffer (1 MiB) edges, and
/// whether the file system takes direct I/O (the temporary folder's disk),
/// refuses it (tmpfs) or the file is asked to go through the page cache.
@Suite struct OutputFileTests {
    /// Lengths of the writes of one file, around every edge.
    static let writes: [[Int]] = [
        [], [0], [1], [4095], [4096], [4097], [1 << 20], [(1 << 20) + 1], [(1 << 20) - 1, 2],
        [3, 4093, 4096, 1 << 20, 7], [3 << 20], [100, 0, 5000, (2 << 20) + 11],
    ]

    private func expectExactBytes(in directory: URL, throughPageCache: Bool) throws {
        var generator = SplitMix64(seed: 11)
        for (index, lengths) in Self.writes.enumerated() {
            let path = directory.appendingPathComponent("out\(index).bin").path
            let file = try OutputFile(path: path, throughPageCache: throughPageCache)
            var expected: [UInt8] = []
            for length in lengths {
                let bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
                try file.write(bytes)
                expected += bytes
                #expect(file.count == Int64(expected.count))
            }
            try file.close()
            let written = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
            #expect(written.count == expected.count, "writes \(lengths)")
            #expect(written == expected, "writes \(lengths)")
        }
    }

    @Test func aFileOnDiskHoldsExactlyTheBytesWritten() throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try expectExactBytes(in: directory, throughPageCache: false)
    }

    @Test func aFileThroughThePageCacheHoldsExactlyTheBytesWritten() throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try expectExactBytes(in: directory, throughPageCache: true)
    }

    /// tmpfs refuses O_DIRECT at the open: the file is written through the cache.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/dev/shm")))
    func aFileSystemWithoutDirectIOGetsTheSameBytes() throws {
        let directory = URL(fileURLWithPath: "/dev/shm/dayfold-output-file-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try expectExactBytes(in: directory, throughPageCache: false)
    }

    /// An existing file is replaced whole, not overwritten in place.
    @Test func anExistingFileIsTruncated() throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("old.bin").path
        try Data(repeating: 0x41, count: 10_000).write(to: URL(fileURLWithPath: path))
        let file = try OutputFile(path: path)
        try file.write(Array("new".utf8))
        try file.close()
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data("new".utf8))
    }

    @Test func aFolderThatDoesNotExistIsAnOpenErrorNamingThePath() throws {
        let path = "/nonexistent-dayfold-folder/out.bin"
        #expect {
            _ = try OutputFile(path: path)
        } throws: { error in
            guard let failure = error as? SystemCallError else { return false }
            return failure.call == "open" && failure.path == path && failure.code == ENOENT
        }
    }
}
