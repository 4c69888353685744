import Foundation
import Testing

@testable import DayfoldCore

/// The flat id tables and the digest taken while reading: sizing a table up
/// front or reading a file through a stream must not change any answer.
@Suite struct IdTableTests {
    @Test func fingerprintMapGivesDenseIndexesInOrderOfFirstSightWhateverItsSize() {
        let keys: [UInt64] = (1...5000).map { UInt64($0) &* 0x9E37_79B9_7F4A_7C15 | 1 }
        var grown = FingerprintMap()
        var reserved = FingerprintMap()
        reserved.reserve(keys.count)
        for key in keys + keys.reversed() {
            let left = grown.intern(key)
            let right = reserved.intern(key)
            #expect(left.index == right.index && left.isNew == right.isNew)
        }
        #expect(grown.count == keys.count)
        let again = grown.intern(keys[41])
        #expect(again.index == 41 && !again.isNew)
        #expect(reserved[keys[4999]] == 4999)
        #expect(reserved[12345] == nil)
    }

    @Test func byteKeyTableFindsEveryKeyAfterReserving() {
        var table = ByteKeyTable()
        let early = ["alpha", "beta", ""].map { ArraySlice(Array($0.utf8)) }
        for key in early { _ = table.intern(key) }
        table.reserve(10_000)
        let late = (0..<3000).map { ArraySlice(Array("id-\($0)".utf8)) }
        for key in late {
            let interned = table.intern(key)
            #expect(interned.isNew)
        }
        for (index, key) in (early + late).enumerated() { #expect(table.find(key) == Int32(index)) }
        #expect(table.find(ArraySlice(Array("id-3000".utf8))) == nil)
    }

    @Test func fingerprintSetKeepsItsValuesAcrossReserve() {
        var set = FingerprintSet()
        let first = set.insert(7)
        set.reserve(100_000)
        let second = set.insert(7)
        #expect(first && !second)
        #expect(set.contains(7) && !set.contains(8))
    }

    @Test func byteStringsOrderAsBytes() {
        var strings = ByteStrings()
        let texts = ["b", "a", "ab", "", "é", "e", "a"]
        let ids = texts.map { strings.append(Array($0.utf8)) }
        for (left, leftText) in zip(ids, texts) {
            for (right, rightText) in zip(ids, texts) {
                #expect(strings.less(left, right) == bytesLess(leftText, rightText), "\(leftText) < \(rightText)")
            }
        }
        #expect(Array(strings[ids[4]]) == Array("é".utf8))
    }

    @Test func streamDigestIsTheFilesSHA256PlainAndCompressed() throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let plain = directory.appendingPathComponent("rows.csv")
        try Data((0..<20_000).map { "row,\($0)\n" }.joined().utf8).write(to: plain)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/zstd")
        process.arguments = ["-q", "-f", plain.path, "-o", plain.path + ".zst"]
        try process.run()
        process.waitUntilExit()
        for path in [plain.path, plain.path + ".zst"] {
            let digest = StreamDigest()
            let stream = try openByteStream(path: path, chunkSize: 1000, digest: digest)
            var buffer: [UInt8] = []
            while try stream.append(to: &buffer) {}
            // A .zst file's digest is of its compressed bytes, as the manifest lists the file.
            #expect(digest.hex() == (try SHA256Hasher.hex(file: path)), "\(path)")
        }
    }

    /// Strings and keys lent in place are the bytes the subscripts copy out,
    /// empty ones and the last one included.
    @Test func stringsAndKeysLentInPlaceAreTheirBytes() {
        var strings = ByteStrings()
        var table = ByteKeyTable()
        let values = ["id-1", "", "été", "id-1", String(repeating: "z", count: 300)]
        for value in values {
            _ = strings.append(Array(value.utf8))
            _ = table.intern(Array(value.utf8)[...])
        }
        func copied(_ span: Span<UInt8>) -> [UInt8] { span.indices.map { span[$0] } }
        for index in values.indices {
            #expect(strings.withString(Int32(index)) { copied($0) } == Array(strings[Int32(index)]))
            #expect(strings.withString(Int32(index)) { copied($0) } == Array(values[index].utf8))
        }
        for index in 0..<4 {
            #expect(table.withKey(Int32(index)) { copied($0) } == Array(table.key(Int32(index))))
        }
        #expect(table.withKey(1) { $0.count } == 0)
    }
}
