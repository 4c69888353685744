import Foundation

/// A batch of parsed CSV records: field bytes back to back, their offsets,
/// each record's start line and original text. Batches are what the parsing
/// thread hands to the reading thread, so neither waits on the other per row.
final class CSVRecordBatch: @unchecked Sendable {
    var bytes: [UInt8] = []
    var starts: [Int] = []
    var ends: [Int] = []
    /// Per record: one past its last field in `starts`/`ends`.
    var recordEnds: [Int] = []
    var lines: [Int] = []
    var raw: [UInt8] = []
    var rawEnds: [Int] = []

    var count: Int { recordEnds.count }

    init(reserve: Int = 1 << 20) {
        bytes.reserveCapacity(reserve)
        raw.reserveCapacity(reserve)
    }

    func appendField(_ field: UnsafeRawBufferPointer) {
        starts.append(bytes.count)
        bytes.append(contentsOf: field)
        ends.append(bytes.count)
    }

    func endRecord(line: Int, raw text: [UInt8]) {
        recordEnds.append(starts.count)
        lines.append(line)
        raw.append(contentsOf: text)
        rawEnds.append(raw.count)
    }

    /// Points `record` at record `index` of this batch (field offsets are copied, bytes shared).
    func load(_ index: Int, into record: CSVRecord) {
        let fieldStart = index == 0 ? 0 : recordEnds[index - 1]
        let fieldEnd = recordEnds[index]
        record.bytes = bytes
        record.starts.removeAll(keepingCapacity: true)
        record.ends.removeAll(keepingCapacity: true)
        record.starts.append(contentsOf: starts[fieldStart..<fieldEnd])
        record.ends.append(contentsOf: ends[fieldStart..<fieldEnd])
        record.line = lines[index]
        record.rawSource = raw
        record.rawRange = (index == 0 ? 0 : rawEnds[index - 1])..<rawEnds[index]
    }
}

/// A bounded hand-over of batches between the parsing thread and the reader.
final class CSVBatchChannel: @unchecked Sendable {
    enum Item {
        case batch(CSVRecordBatch)
        case failure(any Error)
        case end
    }

    private var items: [Item] = []
    private let condition = NSCondition()
    private let capacity: Int
    private var cancelled = false

    init(capacity: Int) { self.capacity = capacity }

    /// Blocks while full; returns false once the reader has given up.
    func push(_ item: Item) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while items.count >= capacity && !cancelled { condition.wait() }
        if cancelled { return false }
        items.append(item)
        condition.broadcast()
        return true
    }

    func pop() -> Item {
        condition.lock()
        defer { condition.unlock() }
        while items.isEmpty { condition.wait() }
        let item = items.removeFirst()
        condition.broadcast()
        return item
    }

    /// The reader stops early: the producer's next push returns false.
    func cancel() {
        condition.lock()
        cancelled = true
        items.removeAll()
        condition.broadcast()
        condition.unlock()
    }

    var isCancelled: Bool {
        condition.lock()
        defer { condition.unlock() }
        return cancelled
    }
}
