/// Maps repeated byte strings (user ids, units, source names) to one shared
/// String and a dense index, so a row costs a hash lookup instead of a new String.
struct ByteInterner {
    private var table = ByteKeyTable()
    private(set) var strings: [String] = []

    mutating func intern(_ bytes: ArraySlice<UInt8>) -> Int32 {
        let (index, isNew) = table.intern(bytes)
        if isNew { strings.append(String(decoding: bytes, as: UTF8.self)) }
        return index
    }

    /// As `intern(_:)`, for the field `bytes[field]` read in place.
    mutating func intern(_ bytes: [UInt8], field: Range<Int>) -> Int32 {
        let (index, isNew) = table.intern(bytes, field: field)
        if isNew { strings.append(String(decoding: bytes[field], as: UTF8.self)) }
        return index
    }

    /// As `intern(_:)`, for bytes read in place (`CSVRow.withField`).
    mutating func intern(_ bytes: Span<UInt8>) -> Int32 {
        let (index, isNew) = table.intern(bytes)
        if isNew { strings.append(String(decoding: table.key(index), as: UTF8.self)) }
        return index
    }

    subscript(index: Int32) -> String { strings[Int(index)] }
}
