import Foundation

extension AppleHealthFastXMLReader {
    private enum BatchItem {
        case batch(HealthXMLRowBatch)
        case end(HealthXMLFastOutcome)
        case failure(any Error)
    }

    /// Thrown on the scanning thread when the deciding side gave up.
    private struct Abandoned: Error {}

    /// `read` with the scanning on a thread of its own: children are decoded
    /// there into batches (`HealthXMLRowBatch`) and `onBatch` is called with
    /// them here, in document order, while the next ones are scanned.
    /// Every batch before the outcome is handed over, also before `.needsExpat`
    /// (the caller takes their rows back then).
    /// - Throws: what `onBatch` throws (the scanning stops).
    static func readInBatches(
        _ stream: ByteStream, user: [UInt8], keepRaw: Bool, onBatch: (HealthXMLRowBatch) throws -> Void
    ) throws -> HealthXMLFastOutcome {
        let queue = BoundedQueue<BatchItem>(capacity: 4)
        let done = DispatchSemaphore(value: 0)
        let source = StreamHandoff(stream)
        startProducerThread {
            var batch = HealthXMLRowBatch(user: user)
            do {
                let outcome = try read(source.stream) { view in
                    batch.append(view, keepRaw: keepRaw)
                    if batch.isFull {
                        guard queue.push(.batch(batch)) else { throw Abandoned() }
                        batch = HealthXMLRowBatch(user: user)
                    }
                }
                if !batch.isEmpty { _ = queue.push(.batch(batch)) }
                _ = queue.push(.end(outcome))
            } catch {
                _ = queue.push(.failure(error))
            }
            done.signal()
        }
        defer { done.wait() }
        while true {
            switch queue.pop() {
            case .batch(let batch):
                do {
                    try onBatch(batch)
                } catch {
                    queue.cancel()
                    throw error
                }
            case .end(let outcome):
                return outcome
            case .failure(let error):
                throw error
            }
        }
    }
}
