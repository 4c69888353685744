import Testing

@testable import DayfoldCore

/// The id rule (SPEC §10), tested 8 bytes at a time: it must agree with a
/// byte-by-byte reading on every length and position.
@Suite struct IDBytesTests {
    func byteByByte(_ bytes: [UInt8]) -> Bool {
        bytes.count <= 256 && !bytes.contains { $0 < 0x20 || $0 == 0x7F }
    }

    @Test func wordScanAgreesWithByteByByteReading() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
        // Printable bytes, UTF-8 lead/continuation bytes, with one byte at a
        // random place replaced by a control byte, DEL, or a harmless byte.
        let specials: [UInt8] = [0x00, 0x01, 0x1B, 0x1F, 0x7F, 0x20, 0x7E, 0x80, 0xC3, 0xFF]
        for _ in 0..<5000 {
            let length = Int(next() % 300)
            var bytes = (0..<length).map { _ in UInt8(0x20 + next() % 0x5F) | (next() % 4 == 0 ? 0x80 : 0) }
            if length > 0 && next() % 2 == 0 {
                bytes[Int(next() % UInt64(length))] = specials[Int(next() % UInt64(specials.count))]
            }
            let fast = bytes.withUnsafeBufferPointer { IDBytes.isValid($0) }
            #expect(fast == byteByByte(bytes), "\(bytes)")
        }
    }

    @Test func lengthLimitIs256Bytes() {
        #expect(IDBytes.isValid(Array(repeating: 0x61, count: 256), 0..<256))
        #expect(!IDBytes.isValid(Array(repeating: 0x61, count: 257), 0..<257))
        #expect(IDBytes.isValid([], 0..<0))
    }
}
