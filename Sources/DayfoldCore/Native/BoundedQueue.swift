import Foundation

/// A first-in first-out queue between two threads holding at most
/// `capacity` items: `push` waits while it is full, `pop` while it is empty.
/// `cancel` (by the reader giving up) wakes and stops a waiting writer.
final class BoundedQueue<Item>: @unchecked Sendable {
    private let condition = NSCondition()
    private var items: [Item] = []
    private var cancelled = false
    private let capacity: Int

    init(capacity: Int) { self.capacity = max(1, capacity) }

    /// Adds `item`; false when the queue was cancelled (the item is dropped).
    func push(_ item: Item) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while items.count >= capacity && !cancelled { condition.wait() }
        if cancelled { return false }
        items.append(item)
        condition.broadcast()
        return true
    }

    /// The oldest item, waiting for one.
    func pop() -> Item {
        condition.lock()
        defer { condition.unlock() }
        while items.isEmpty { condition.wait() }
        condition.broadcast()
        return items.removeFirst()
    }

    /// The reader stops early: a waiting or later `push` returns false.
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

/// Hands a stream to a producer thread, which alone uses it afterwards (a
/// `ByteStream` is a class that is not `Sendable`: the hand-over is the
/// promise that the thread that made it stops using it).
struct StreamHandoff: @unchecked Sendable {
    let stream: ByteStream
    init(_ stream: ByteStream) { self.stream = stream }
}
