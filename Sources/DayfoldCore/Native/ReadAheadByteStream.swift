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
    private enum Item {
        case chunk([UInt8])
        case end
        case failure(any Error)
    }

    private let queue: BoundedQueue<Item>
    private let done = DispatchSemaphore(value: 0)
    private var finished = false

    init(_ inner: ByteStream, capacity: Int = 4) {
        let queue = BoundedQueue<Item>(capacity: capacity)
        self.queue = queue
        // The inner stream is used by the producer thread only from here on.
        let handoff = StreamHandoff(inner)
        let done = self.done
        startProducerThread {
            // Reads the stream to its end (or first error) unless cancelled.
            while !queue.isCancelled {
                let item: Item
                do {
                    item = try handoff.stream.nextChunk().map { .chunk($0) } ?? .end
                } catch {
                    item = .failure(error)
                }
                guard queue.push(item), case .chunk = item else { break }
            }
            done.signal()
        }
    }

    deinit {
        queue.cancel()
        done.wait()
    }

    func nextChunk() throws -> [UInt8]? {
        if finished { return nil }
        switch queue.pop() {
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
