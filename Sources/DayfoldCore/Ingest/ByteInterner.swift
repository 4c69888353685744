/// Maps repeated byte strings (user ids, units, source names) to one shared
/// String and a dense index, so a row costs a hash lookup instead of a new String.
struct ByteInterner {
    private var indexes: [ArraySlice<UInt8>: Int32] = [:]
    private(set) var strings: [String] = []

    mutating func intern(_ bytes: ArraySlice<UInt8>) -> Int32 {
        if let index = indexes[bytes] { return index }
        let copy = ArraySlice(Array(bytes))
        let index = Int32(strings.count)
        indexes[copy] = index
        strings.append(String(decoding: copy, as: UTF8.self))
        return index
    }

    subscript(index: Int32) -> String { strings[Int(index)] }
}
