/// Byte strings stored back to back: one buffer and an end offset each.
/// Ids that are only compared (an event's id breaks ties between events at
/// the same instant) cost no String and no allocation per row.
public struct ByteStrings: Sendable {
    private var bytes: [UInt8] = []
    private var ends: [Int] = []

    public init() {}

    public var count: Int { ends.count }

    /// Room for `count` strings of `bytes` bytes in all (see `DropIngestor.roomForRows`).
    mutating func reserve(count: Int, bytes: Int) {
        ends.reserveCapacity(count)
        self.bytes.reserveCapacity(bytes)
    }

    /// Adds a string; returns its index.
    mutating func append(_ value: some Collection<UInt8>) -> Int32 {
        bytes.append(contentsOf: value)
        ends.append(bytes.count)
        return Int32(ends.count - 1)
    }

    private func range(_ index: Int32) -> Range<Int> {
        (index == 0 ? 0 : ends[Int(index) - 1])..<ends[Int(index)]
    }

    /// The string's bytes.
    public subscript(index: Int32) -> ArraySlice<UInt8> { bytes[range(index)] }

    /// Whether string `left` sorts before string `right` (as `bytesLess`).
    func less(_ left: Int32, _ right: Int32) -> Bool {
        bytes.withUnsafeBufferPointer { bytesLess($0, range(left), range(right)) }
    }
}
