/// The parsers of `Model/` applied to a field read in place: `bytes[field]`
/// through its buffer. Indexing an array or a slice checked its bounds on
/// each of some thirty reads of an instant; every read of the parsers is
/// guarded by `start`/`end` or by `digits`, which checks the buffer's own.
/// Domain code names the field by its range and never sees the memory.
extension InstantParser {
    /// `parseInput` of `bytes[field]`.
    static func parseInput(_ bytes: [UInt8], field: Range<Int>) -> ParsedInstant? {
        bytes.withUnsafeBufferPointer { parseInput(UnsafeBufferPointer(rebasing: $0[field]), 0, field.count) }
    }

    /// Parses a whole slice.
    static func parse(_ slice: ArraySlice<UInt8>) -> ParsedInstant? {
        slice.withUnsafeBufferPointer { parse($0, 0, $0.count) }
    }

    /// Parses `bytes[field]`.
    static func parse(_ bytes: [UInt8], field: Range<Int>) -> ParsedInstant? {
        bytes.withUnsafeBufferPointer { parse(UnsafeBufferPointer(rebasing: $0[field]), 0, field.count) }
    }
}

extension LocalDate {
    /// Parses a whole slice.
    static func parse(_ slice: ArraySlice<UInt8>) -> LocalDate? {
        slice.withUnsafeBufferPointer { parse($0, 0, $0.count) }
    }

    /// Parses `bytes[field]`.
    static func parse(_ bytes: [UInt8], field: Range<Int>) -> LocalDate? {
        bytes.withUnsafeBufferPointer { parse(UnsafeBufferPointer(rebasing: $0[field]), 0, field.count) }
    }

    /// `parseInput` of `bytes[field]`.
    static func parseInput(_ bytes: [UInt8], field: Range<Int>) -> LocalDate? {
        bytes.withUnsafeBufferPointer { parseInput(UnsafeBufferPointer(rebasing: $0[field]), 0, field.count) }
    }
}

/// `parseInputNumber` of `bytes[field]`.
func parseInputNumber(_ bytes: [UInt8], field: Range<Int>) -> InputNumber {
    bytes.withUnsafeBufferPointer { parseInputNumber(UnsafeBufferPointer(rebasing: $0[field]), 0, field.count) }
}

extension TaskStatus {
    /// The status named exactly by the field `bytes[field]`, or nil.
    static func named(_ bytes: [UInt8], field: Range<Int>) -> TaskStatus? {
        bytes.withUnsafeBufferPointer { packedNames.match(UnsafeBufferPointer(rebasing: $0[field])) }
    }

    /// The status named exactly by `bytes`, or nil.
    static func named(_ bytes: ArraySlice<UInt8>) -> TaskStatus? {
        bytes.withUnsafeBufferPointer { packedNames.match($0) }
    }
}

/// A few short names (6 to 16 bytes), each with its length and bytes packed
/// into two words: a field is matched with two integer comparisons per name
/// of its length. A generic byte-by-byte comparison against arrays of the
/// names took 1 % of a run (one status per instance and event).
struct PackedNames<Value: Sendable>: Sendable {
    private let names: [(length: Int, first: UInt64, rest: UInt64, value: Value)]
    private let lengths: ClosedRange<Int>

    init(_ names: [(String, Value)]) {
        self.names = names.map { name, value in
            let bytes = Array(name.utf8)
            let (first, rest) = bytes.withUnsafeBufferPointer(Self.pack)
            return (bytes.count, first, rest, value)
        }
        let counts = self.names.map(\.length)
        lengths = (counts.min() ?? 0)...(counts.max() ?? 0)
    }

    /// Bytes 0–7 and 8–15 of `bytes` as little-endian words (bytes past the
    /// 16th are left out: only fields of a name's length are packed).
    private static func pack(_ bytes: UnsafeBufferPointer<UInt8>) -> (UInt64, UInt64) {
        var first: UInt64 = 0
        var rest: UInt64 = 0
        for index in 0..<min(bytes.count, 16) {
            if index < 8 {
                first |= UInt64(bytes[index]) << (8 * UInt64(index))
            } else {
                rest |= UInt64(bytes[index]) << (8 * UInt64(index - 8))
            }
        }
        return (first, rest)
    }

    /// The value of the name `bytes` spell exactly, or nil.
    func match(_ bytes: UnsafeBufferPointer<UInt8>) -> Value? {
        guard lengths.contains(bytes.count), bytes.count <= 16 else { return nil }
        let (first, rest) = Self.pack(bytes)
        for name in names where name.length == bytes.count && name.first == first && name.rest == rest {
            return name.value
        }
        return nil
    }
}
