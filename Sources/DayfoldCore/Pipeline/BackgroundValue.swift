import Foundation

/// A value computed on a thread of its own while the caller goes on; `value()`
/// waits for it. A thread, not a dispatch queue: callers are often dispatch
/// workers themselves (parallel jobs), and dispatch's pool may have no thread
/// left to run the work they wait for.
final class BackgroundValue<Value>: @unchecked Sendable {
    private var result: Value?
    private let done = DispatchSemaphore(value: 0)

    init(_ body: @escaping @Sendable () -> Value) {
        startProducerThread {
            self.result = body()
            self.done.signal()
        }
    }

    /// Waits for the value (call once).
    func value() -> Value {
        done.wait()
        guard let result else { preconditionFailure("BackgroundValue finished without a value") }
        return result
    }
}
