/// Byte strings stored back to back: one buffer and an end offset each.
/// Ids that are only compared (an event's id breaks ties between events at
/// the same instant) cost no String and no allocation per row.
public struct ByteStrings: Sendable {
    private var bytes: [UInt8] = []
    /// Where each string starts, and after the last one where the bytes end
    /// (so string `i` is `offsets[i]..<offsets[i + 1]`).
    private var offsets: [Int] = [0]

    public init() {}

    /// Strings already laid out this way (an intern table's keys, taken whole).
    init(bytes: [UInt8], offsets: [Int]) {
        precondition(offsets.first == 0 && offsets.last == bytes.count, "offsets must span the bytes")
        self.bytes = bytes
        self.offsets = offsets
    }

    /// The bytes and the offsets that cut them (for `ReadingArchive`).
    var storage: (bytes: [UInt8], offsets: [Int]) { (bytes, offsets) }

    /// Strings from stored bytes and offsets, or nil when the offsets do
    /// not cut the bytes (start at 0, never decrease, end at the count).
    init?(validating bytes: [UInt8], offsets: [Int]) {
        guard offsets.first == 0, offsets.last == bytes.count else { return nil }
        for index in offsets.indices.dropFirst() where offsets[index] < offsets[index - 1] { return nil }
        self.bytes = bytes
        self.offsets = offsets
    }

    public var count: Int { offsets.count - 1 }

    /// Room for `count` strings of `bytes` bytes in all (see `DropIngestor.roomForRows`).
    mutating func reserve(count: Int, bytes: Int) {
        offsets.reserveCapacity(count + 1)
        self.bytes.reserveCapacity(bytes)
    }

    /// As `append(_:)`, for bytes read in place (a field, `CSVRecord.withField`).
    mutating func append(_ value: Span<UInt8>) -> Int32 {
        ByteCopy.append(value, into: &bytes)
        offsets.append(bytes.count)
        return Int32(offsets.count - 2)
    }

    /// Adds a string; returns its index.
    mutating func append(_ value: some Collection<UInt8>) -> Int32 {
        bytes.append(contentsOf: value)
        offsets.append(bytes.count)
        return Int32(offsets.count - 2)
    }

    private func range(_ index: Int32) -> Range<Int> { offsets[Int(index)]..<offsets[Int(index) + 1] }

    /// The string's bytes.
    public subscript(index: Int32) -> ArraySlice<UInt8> { bytes[range(index)] }

    /// Calls `body` with string `index`'s bytes in place: a writer's loop
    /// over a million ids takes no slice (a retain and release of the
    /// buffer) per string.
    func withString<Result>(_ index: Int32, _ body: (Span<UInt8>) -> Result) -> Result {
        body(bytes.span.extracting(range(index)))
    }

    /// Starts loading where string `index` starts and ends (a hint; see
    /// `prefetchElement`). With `prefetchBytes` a few iterations later, a loop
    /// that gathers strings in an order of its own overlaps both misses.
    func prefetchOffsets(_ index: Int32) { prefetchElement(offsets, Int(index)) }

    /// Starts loading string `index`'s first bytes (its offset, prefetched
    /// earlier, is read now).
    func prefetchBytes(_ index: Int32) {
        guard index >= 0 && Int(index) < count else { return }
        prefetchElement(bytes, offsets[Int(index)])
    }

    /// Whether string `left` sorts before string `right` (as `bytesLess`).
    func less(_ left: Int32, _ right: Int32) -> Bool {
        bytes.withUnsafeBufferPointer { bytesLess($0, range(left), range(right)) }
    }
}
