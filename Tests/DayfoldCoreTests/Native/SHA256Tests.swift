import Foundation
import Testing

@testable import DayfoldCore

/// Event ids hash short messages with one compression call of a padded
/// block; longer ones take the general path. Both must be SHA-256 exactly.
@Suite struct SHA256Tests {
    /// FIPS 180-2 examples, worked independently of OpenSSL.
    @Test func knownDigestsOfShortAndLongMessages() {
        func hex(_ text: String) -> String {
            var output: [UInt8] = []
            let bytes = Array(text.utf8)
            bytes.withUnsafeBufferPointer { SHA256Hasher.appendHex(of: $0, into: &output) }
            return String(decoding: output, as: UTF8.self)
        }
        #expect(hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        // 56 bytes: one past what a single block holds with its padding.
        #expect(
            hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    /// Every length around the one-block limit, against the streaming hasher.
    @Test func everyLengthMatchesTheStreamingHasher() {
        var generator = ParquetTestRandom(state: 5)
        for length in 0...130 {
            let message = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            var fast: [UInt8] = Array("prefix".utf8)
            message.withUnsafeBufferPointer { SHA256Hasher.appendHex(of: $0, into: &fast) }
            var streaming = SHA256Hasher()
            streaming.update(message)
            #expect(String(decoding: fast, as: UTF8.self) == "prefix" + streaming.finalizeHex(), "length \(length)")
        }
    }

    /// Pairs hashed side by side give each message's own digest, in order:
    /// every pair of lengths around the one-block limit (the longer ones
    /// take the one-by-one path), FIPS "abc" with "" among them.
    @Test func pairsGiveEachMessagesOwnDigest() {
        func streamed(_ message: [UInt8]) -> String {
            var hasher = SHA256Hasher()
            hasher.update(message)
            return hasher.finalizeHex()
        }
        var generator = ParquetTestRandom(state: 11)
        let lengths = Array(0...8) + Array(30...60) + [63, 64, 65, 119, 120]
        for firstLength in lengths {
            for secondLength in lengths {
                let first = (0..<firstLength).map { _ in UInt8.random(in: 0...255, using: &generator) }
                let second = (0..<secondLength).map { _ in UInt8.random(in: 0...255, using: &generator) }
                var output: [UInt8] = Array("prefix".utf8)
                first.withUnsafeBufferPointer { a in
                    second.withUnsafeBufferPointer { b in SHA256Hasher.appendHexOfPair(a, b, into: &output) }
                }
                #expect(
                    String(decoding: output, as: UTF8.self) == "prefix" + streamed(first) + streamed(second),
                    "lengths \(firstLength), \(secondLength)")
            }
        }
        var output: [UInt8] = []
        Array("abc".utf8).withUnsafeBufferPointer { a in
            [UInt8]().withUnsafeBufferPointer { b in SHA256Hasher.appendHexOfPair(a, b, into: &output) }
        }
        #expect(
            String(decoding: output, as: UTF8.self)
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
                + "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }
}
