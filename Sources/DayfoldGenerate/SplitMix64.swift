/// A small, fast, seeded pseudo-random generator (Steele, Lea & Flood's
/// SplitMix64). The synthetic drop must be byte-identical for the same seed on
/// every run and every Swift version, so the generator never touches the
/// standard library's random APIs, whose algorithms are not a stable contract.
struct SplitMix64: Sendable {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    /// A generator for one (stream, a, b) cell, e.g. (health, client, day):
    /// every cell draws from its own sequence, so one kind's changes never
    /// shift another kind's values.
    init(seed: UInt64, stream: UInt64, _ first: Int, _ second: Int = 0) {
        state = SplitMix64.hash(seed, stream, UInt64(truncatingIfNeeded: first), UInt64(truncatingIfNeeded: second))
    }

    /// The next 64 random bits.
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        return SplitMix64.finalize(state)
    }

    /// A uniform integer in `0..<bound` (Lemire's multiply-high reduction;
    /// the tiny bias is irrelevant for synthetic data).
    mutating func below(_ bound: Int) -> Int {
        precondition(bound > 0, "bound must be positive")
        return Int(truncatingIfNeeded: next().multipliedFullWidth(by: UInt64(bound)).high)
    }

    /// A uniform integer in `range`.
    mutating func int(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + below(range.upperBound - range.lowerBound + 1)
    }

    /// A uniform double in `[0, 1)`.
    mutating func unit() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    /// True with probability `probability`.
    mutating func chance(_ probability: Double) -> Bool {
        unit() < probability
    }

    /// The SplitMix64 output function: a bijection on 64 bits with good avalanche.
    static func finalize(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Hashes up to four words into one (used for seeds and synthetic ids).
    static func hash(_ a: UInt64, _ b: UInt64, _ c: UInt64 = 0, _ d: UInt64 = 0) -> UInt64 {
        var h = finalize(a &+ 0x9E37_79B9_7F4A_7C15)
        h = finalize(h ^ (b &* 0xD6E8_FEB8_6659_FD93))
        h = finalize(h ^ (c &* 0xA076_1D64_78BD_642F))
        return finalize(h ^ (d &* 0xE703_7ED1_A0B4_28DB))
    }
}
