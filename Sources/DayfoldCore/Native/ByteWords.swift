/// Eight bytes tested at once in a 64-bit word: the CSV tokenizer's scans
/// for the bytes that end a field and the report writer's test for the
/// bytes that need quotes. A byte equal to `b` is a zero byte of the word
/// xor `repeated(b)`.
enum ByteWords {
    static let ones: UInt64 = 0x0101_0101_0101_0101
    static let highs: UInt64 = 0x8080_8080_8080_8080

    /// `byte` in each of the word's eight bytes.
    @inline(__always) static func repeated(_ byte: UInt8) -> UInt64 { UInt64(byte) &* ones }

    /// High bit set in each byte of `word` that is zero; exact for the lowest
    /// one, and nonzero exactly when some byte is zero.
    @inline(__always) static func zeroBytes(_ word: UInt64) -> UInt64 { (word &- ones) & ~word & highs }

    /// High bit set in each byte of `word` below `limit` (at most 0x80);
    /// nonzero exactly when some byte is below it. (A byte ≥ 0x80 never
    /// counts: `~word` clears its high bit.)
    @inline(__always) static func below(_ word: UInt64, _ limit: UInt8) -> UInt64 {
        (word &- repeated(limit)) & ~word & highs
    }
}
