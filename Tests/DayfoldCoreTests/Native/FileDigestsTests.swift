import Foundation
import Testing

@testable import DayfoldCore
@testable import DayfoldGenerate

/// Input digests taken two files at a time (SHA instructions) or one at a
/// time (OpenSSL) must equal the streaming SHA-256 of each file, whatever
/// the files' lengths, how the lanes pair up, and where windows end.
@Suite struct FileDigestsTests {
    /// Files of lengths around every edge: empty, within one block, block
    /// edges, padding edges (55/56), window edges (4096), several windows.
    static let lengths = [0, 1, 55, 56, 63, 64, 65, 127, 128, 4095, 4096, 4097, 8192 + 64, 3 * 4096 + 37, 200, 5]

    private func writeFiles(_ lengths: [Int], in directory: URL) throws -> [String] {
        var generator = SplitMix64(seed: 7)
        return try lengths.enumerated().map { index, length in
            let path = directory.appendingPathComponent("f\(index).csv").path
            let bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            return path
        }
    }

    /// Every edge length's digest and size, against the streaming hasher.
    private func expectDigestsOfEdgeLengths(window: Int, paired: Bool) throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let paths = try writeFiles(Self.lengths, in: directory)
        let digests = FileDigests.hex(of: paths, window: window, paired: paired)
        #expect(digests.count == paths.count)
        for (index, path) in paths.enumerated() {
            #expect(digests[index]?.digest == (try SHA256Hasher.hex(file: path)), "length \(Self.lengths[index])")
            #expect(digests[index]?.size == Self.lengths[index])
        }
    }

    @Test(arguments: [true, false])
    func digestsMatchTheStreamingHasher(paired: Bool) throws {
        guard !paired || SHA256Hasher.pairedBlocks else { return }
        try expectDigestsOfEdgeLengths(window: 4096, paired: paired)
    }

    /// (Unpaired hashing reads every file: only the paired path maps.)
    @Test func filesThatCannotBeMappedAreReadInstead() throws {
        guard SHA256Hasher.pairedBlocks else { return }
        // A window of 0 bytes maps nothing: every non-empty file takes the reading path.
        try expectDigestsOfEdgeLengths(window: 0, paired: true)
    }

    @Test func knownDigestsOfEmptyAndAbc() throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let empty = directory.appendingPathComponent("empty.csv")
        let abc = directory.appendingPathComponent("abc.csv")
        try Data().write(to: empty)
        try Data("abc".utf8).write(to: abc)
        let digests = FileDigests.hex(of: [empty.path, abc.path])
        #expect(digests[0]?.digest == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(digests[1]?.digest == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test func anUnreadableFileHasNoDigestAndTheOthersStillDo() throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let paths = try writeFiles([100, 5000], in: directory)
        let missing = directory.appendingPathComponent("missing.csv").path
        let digests = FileDigests.hex(of: [paths[0], missing, paths[1]], window: 4096)
        #expect(digests[1] == nil)
        #expect(digests[0]?.digest == (try SHA256Hasher.hex(file: paths[0])))
        #expect(digests[2]?.digest == (try SHA256Hasher.hex(file: paths[1])))
    }

    @Test func aFileThatChangedSizeDuringTheRunIsReported() {
        var read = FileAccount(path: "tasks/instances/a.csv", kind: "instances")
        read.bytesRead = 120
        var same = FileAccount(path: "tasks/instances/b.csv", kind: "instances")
        same.bytesRead = 80
        let xml = FileAccount(path: "health/u1/export.xml", kind: "health")
        let files = [read.path, same.path, xml.path].map { DropLayout.File(relativePath: $0, absolutePath: "/d/" + $0) }
        let (accounts, warnings) = PipelineRunner.digested(
            [read, same, xml], files: files, digests: [("aa", 150), ("bb", 80), ("cc", 999)])
        #expect(accounts.map(\.sha256) == ["aa", "bb", "cc"])
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("tasks/instances/a.csv (read 120 bytes, hashed 150)") == true)
    }
}
