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

    func cancel() {
        condition.lock()
        cancelled = true
        items.removeAll()
        condition.broadcast()
        condition.unlock()
    }
}
