/// Where each field of a batch starts and ends in its buffer, grown by hand.
/// The tokenizer adds two offsets per field, tens of millions per drop; a
/// Swift array's append first asks whether its buffer is shared (a call)
/// and checks its capacity, for each of the two. Here a field costs one
/// capacity check and two stores. Filled by one thread, then only read.
final class FieldOffsets: @unchecked Sendable {
    private(set) var count = 0
    private var capacity: Int
    private var starts: UnsafeMutablePointer<Int>
    private var ends: UnsafeMutablePointer<Int>

    init(capacity: Int = 256) {
        self.capacity = max(capacity, 16)
        starts = .allocate(capacity: self.capacity)
        ends = .allocate(capacity: self.capacity)
    }

    deinit {
        starts.deallocate()
        ends.deallocate()
    }

    @inline(__always) func append(_ start: Int, _ end: Int) {
        if count == capacity { grow() }
        starts[count] = start
        ends[count] = end
        count += 1
    }

    @inline(__always) func start(_ field: Int) -> Int {
        precondition(field >= 0 && field < count, "field offset out of range")
        return starts[field]
    }

    @inline(__always) func end(_ field: Int) -> Int {
        precondition(field >= 0 && field < count, "field offset out of range")
        return ends[field]
    }

    /// Hands `body` the room after the last field (at least `minimum`
    /// slots), as 64-bit offsets for the C scanner to write in place, and
    /// keeps the fields it reports filled.
    func fill(atLeast minimum: Int, _ body: (UnsafeMutablePointer<Int64>, UnsafeMutablePointer<Int64>, Int) -> Int) {
        while capacity - count < minimum { grow() }
        let room = capacity - count
        let filled = (starts + count).withMemoryRebound(to: Int64.self, capacity: room) { starts in
            (ends + count).withMemoryRebound(to: Int64.self, capacity: room) { ends in body(starts, ends, room) }
        }
        precondition(filled >= 0 && filled <= room, "filled more fields than the room given")
        count += filled
    }

    /// Points field `field` at other offsets (its text was rewritten elsewhere).
    func set(_ field: Int, start: Int, end: Int) {
        precondition(field >= 0 && field < count)
        starts[field] = start
        ends[field] = end
    }

    /// Empties the table for reuse when it has room for `capacity` fields
    /// (false, unchanged, when it has not).
    func reset(capacity needed: Int) -> Bool {
        guard needed <= capacity else { return false }
        count = 0
        return true
    }

    /// Drops the fields from `count` on (a record that did not end in the buffer).
    func truncate(to count: Int) {
        precondition(count >= 0 && count <= self.count)
        self.count = count
    }

    /// Moves field `field` by `distance` bytes (its text was appended after the input).
    func shift(_ field: Int, by distance: Int) {
        precondition(field >= 0 && field < count)
        starts[field] += distance
        ends[field] += distance
    }

    private func grow() {
        let larger = capacity * 2
        let newStarts = UnsafeMutablePointer<Int>.allocate(capacity: larger)
        let newEnds = UnsafeMutablePointer<Int>.allocate(capacity: larger)
        newStarts.moveInitialize(from: starts, count: count)
        newEnds.moveInitialize(from: ends, count: count)
        starts.deallocate()
        ends.deallocate()
        starts = newStarts
        ends = newEnds
        capacity = larger
    }
}
