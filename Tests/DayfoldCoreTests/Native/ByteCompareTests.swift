import Testing

@testable import DayfoldCore

/// Byte strings compared in place: key equality for the partitioned merge
/// and the min/max scan of Parquet statistics, which must pick what a
/// plain `bytesLess` scan picks (its 8-byte prefixes only a shortcut).
@Suite struct ByteCompareTests {
    @Test func equalityNeedsTheSameLengthAndBytes() {
        let buffer = Array("xabcabdab".utf8)
        #expect(bytesEqual(buffer[1..<4], Array("abc".utf8)))
        #expect(!bytesEqual(buffer[4..<7], Array("abc".utf8)))
        #expect(!bytesEqual(buffer[1..<3], Array("abc".utf8)))
        #expect(bytesEqual(buffer[2..<2], []))
        #expect(!bytesEqual(buffer[2..<2], Array("a".utf8)))
    }

    @Test func extremesAgreeWithAPlainScanByBytesLess() {
        var generator = ParquetTestRandom(state: 19)
        // Few distinct bytes and shared prefixes, so ties and long common
        // prefixes (past the first 8 and the first 16 bytes) are common.
        let alphabet: [UInt8] = [0x00, 0x41, 0x42, 0x7F, 0x80, 0xFF]
        for _ in 0..<800 {
            var column = ParquetByteColumn()
            var values: [[UInt8]?] = []
            for _ in 0..<Int.random(in: 0...12, using: &generator) {
                if Int.random(in: 0..<5, using: &generator) == 0 {
                    column.appendNull()
                    values.append(nil)
                    continue
                }
                let prefix = [UInt8](repeating: 0x41, count: Int.random(in: 0...18, using: &generator))
                let tail = (0..<Int.random(in: 0...4, using: &generator)).map { _ in
                    alphabet[Int.random(in: 0..<alphabet.count, using: &generator)]
                }
                column.append((prefix + tail)[...])
                values.append(prefix + tail)
            }
            let present = values.compactMap { $0 }
            let expectedMin = present.min { bytesLess($0[...], $1[...]) }
            let expectedMax = present.max { bytesLess($0[...], $1[...]) }
            let found = byteStringExtremes(bytes: column.bytes, ends: column.ends, nulls: column.nulls)
            #expect(found.map { Array(column.bytes[$0.min]) } == expectedMin, "\(values)")
            #expect(found.map { Array(column.bytes[$0.max]) } == expectedMax, "\(values)")
        }
    }
}
