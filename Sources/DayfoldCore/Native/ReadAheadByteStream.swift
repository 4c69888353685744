import Foundation

/// A byte stream read ahead on a thread of its own: the chunks of `inner`
/// (decompressed from a zip entry or a zstd file, or read from a plain file)
/// are produced while the caller scans the previous ones, so inflating and
/// reading run on the second core (issue 24: an `export.zip` is inflated
/// while its XML is scanned and its rows decided).
///
/// At most `capacity` chunks wait, so memory stays flat. The inner stream's
/// errors are handed over in order, after the chunks read before them.
/// Dropping the stream before its end stops the thread (after the chunk it
/// is reading).
final class ReadAheadByteStream: ByteStream {
    private let channel: ReadAheadChannel
    private let done = DispatchSemaphore(value: 0)
    private var finished = false

    init(_ inner: ByteStream, capacity: Int = 4) {
        let channel = ReadAheadChannel(capacity: capacity)
        self.channel = channel
        // The inner stream is used by the producer thread only from here on.
        let box = UncheckedStream(inner)
        let done = self.done
        startProducerThread {
            channel.produce(box.stream)
            done.signal()
        }
    }

    deinit {
        channel.cancel()
        done.wait()
    }

    func nextChunk() throws -> [UInt8]? {
        if finished { return nil }
        switch channel.pop() {
        case .chunk(let chunk): return chunk
        case .end:
            finished = true
            return nil
        case .failure(let error):
            finished = true
            throw error
        }
    }
}

/// The chunks between the producer thread and the reader.
private final class ReadAheadChannel: @unchecked Sendable {
    enum Item {
        case chunk([UInt8])
        case end
        case failure(any Error)
    }

    private let condition = NSCondition()
    private var items: [Item] = []
    private var cancelled = false
    private let capacity: Int

    init(capacity: Int) { self.capacity = max(1, capacity) }

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
        condition.broadcast()
        condition.unlock()
    }

    /// Reads `stream` to its end (or first error) unless cancelled.
    func produce(_ stream: ByteStream) {
        while true {
            condition.lock()
            let stop = cancelled
            condition.unlock()
            if stop { return }
            let item: Item
            do {
                item = try stream.nextChunk().map { .chunk($0) } ?? .end
            } catch {
                item = .failure(error)
            }
            condition.lock()
            while items.count >= capacity && !cancelled { condition.wait() }
            if cancelled {
                condition.unlock()
                return
            }
            items.append(item)
            condition.broadcast()
            condition.unlock()
            guard case .chunk = item else { return }
        }
    }
}

/// Hands a stream to the producer thread, which alone uses it afterwards.
private struct UncheckedStream: @unchecked Sendable {
    let stream: ByteStream
    init(_ stream: ByteStream) { self.stream = stream }
}
