import Testing

@testable import DayfoldCore

/// Dedup keeps 8 bytes per row, so equal fingerprints mean "same row": the
/// byte hashing must tell apart what a drop's keys can differ in.
@Suite struct FingerprintTests {
    func fingerprint(_ parts: [[UInt8]?]) -> UInt64 {
        var key = Fingerprint()
        for part in parts { key.combine(part.map { $0[...] }) }
        return key.value
    }

    /// Every length from 0 to 80 (the one- and two-chain paths, each tail
    /// size and the overlapping tail reads), every one-byte change of each
    /// string and (up to 48 bytes) every same-bit change of two bytes: all distinct.
    @Test func oneByteChangesAndLengthsNeverCollide() {
        var generator = ParquetTestRandom(state: 3)
        var seen: [UInt64: [UInt8]] = [:]
        for length in 0...80 {
            let base = (0..<length).map { _ in UInt8.random(in: 0x20...0x7E, using: &generator) }
            var variants = [base, base + [0], base + [0x20]]
            for position in 0..<length {
                for delta: UInt8 in [1, 0x40] {
                    var changed = base
                    changed[position] ^= delta
                    variants.append(changed)
                    // The same bit in a second byte: changes that a linear
                    // join of the two chains would cancel.
                    for second in stride(from: position + 1, to: length, by: 1) where length <= 48 {
                        var twice = changed
                        twice[second] ^= delta
                        variants.append(twice)
                    }
                }
            }
            for variant in variants {
                let value = fingerprint([variant])
                if let earlier = seen[value], earlier != variant {
                    Issue.record("collision: \(earlier) and \(variant)")
                    return
                }
                seen[value] = variant
            }
        }
        #expect(seen.count > 40000)
    }

    @Test func fieldBoundariesAndNullCount() {
        let ab = Array("ab".utf8)
        let c = Array("c".utf8)
        let a = Array("a".utf8)
        let bc = Array("bc".utf8)
        #expect(fingerprint([ab, c]) != fingerprint([a, bc]))
        #expect(fingerprint([nil]) != fingerprint([[]]))
        #expect(fingerprint([[], a]) != fingerprint([a, []]))
        #expect(fingerprint([a, bc]) == fingerprint([a, bc]))
    }

    /// UUID-shaped ids (36 bytes, as every id in a drop): 200,000 distinct
    /// ones give 200,000 distinct fingerprints.
    @Test func uuidShapedIdsDoNotCollide() {
        var generator = ParquetTestRandom(state: 9)
        let hex = Array("0123456789abcdef".utf8)
        var values = Set<UInt64>()
        var ids = Set<[UInt8]>()
        for _ in 0..<200_000 {
            var id: [UInt8] = []
            for position in 0..<36 {
                id.append(
                    [8, 13, 18, 23].contains(position) ? 0x2D : hex[Int.random(in: 0..<16, using: &generator)])
            }
            ids.insert(id)
            values.insert(fingerprint([id]))
        }
        #expect(values.count == ids.count)
    }
}
