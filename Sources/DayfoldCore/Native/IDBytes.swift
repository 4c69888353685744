/// The id rule of SPEC §10: an id is at most 256 bytes and holds no control
/// character (U+0000–U+001F, U+007F). Ids are on the hot path (several per
/// row of a 1 GB drop), so a field is tested 8 bytes at a time (`ByteWords`):
/// a byte below 0x20 or equal to 0x7F in a word shows as a high bit.
enum IDBytes {
    /// The longest id accepted, in bytes.
    static let maximumLength = 256

    /// Whether `field` is an acceptable id (an empty field is one: NULLs
    /// are judged by the required-value rules, not here).
    @inline(__always)
    static func isValid(_ field: UnsafeBufferPointer<UInt8>) -> Bool {
        guard field.count <= maximumLength else { return false }
        guard let base = field.baseAddress else { return true }
        var offset = 0
        while offset + 8 <= field.count {
            let word = UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self)
            if ByteWords.below(word, 0x20) | ByteWords.zeroBytes(word ^ deletes) != 0 { return false }
            offset += 8
        }
        while offset < field.count {
            let byte = base[offset]
            if byte < 0x20 || byte == 0x7F { return false }
            offset += 1
        }
        return true
    }

    /// `isValid` of `bytes[range]`.
    static func isValid(_ bytes: [UInt8], _ range: Range<Int>) -> Bool {
        guard range.count <= maximumLength else { return false }
        return bytes.withUnsafeBufferPointer { isValid(UnsafeBufferPointer(rebasing: $0[range])) }
    }

    private static let deletes = ByteWords.repeated(0x7F)
}
