/// Maps repeated byte strings (user ids, units, source names) to one shared
/// String and a dense index, so a row costs a hash lookup instead of a new String.
struct ByteInterner {
    private var table = ByteKeyTable()
    private(set) var strings: [String] = []

    /// The index of `bytes` (read in place, `CSVRow.withField`), adding it
    /// and its String when new.
    mutating func intern(_ bytes: Span<UInt8>) -> Int32 {
        let (index, isNew) = table.intern(bytes)
        if isNew { strings.append(String(decoding: table.key(index), as: UTF8.self)) }
        return index
    }

    /// As `intern(_:)`, for the field `bytes[field]` read in place.
    mutating func intern(_ bytes: [UInt8], field: Range<Int>) -> Int32 {
        intern(bytes.span.extracting(field))
    }

    subscript(index: Int32) -> String { strings[Int(index)] }

    /// An interner that holds `strings`, at their indexes (a kept
    /// reading's users, sources or units, interned again in order).
    init(strings: [String]) {
        for string in strings {
            let bytes = Array(string.utf8)
            _ = intern(bytes, field: 0..<bytes.count)
        }
    }

    init() {}
}
