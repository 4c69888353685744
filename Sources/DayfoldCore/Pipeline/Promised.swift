import Dispatch
import Synchronization

/// A value one thread hands to another that may already be waiting for it:
/// `fulfil` once, `wait` as often as needed (it blocks until the value is
/// there). The thread that fulfils must do so on every path, errors
/// included, or a waiter blocks for ever: give it an optional and fulfil
/// `nil` on failure.
final class Promised<Value: Sendable>: Sendable {
    private let slot = Mutex<Value?>(nil)
    private let ready = DispatchSemaphore(value: 0)

    func fulfil(_ value: Value) {
        slot.withLock { $0 = value }
        ready.signal()
    }

    /// The value, once fulfilled (waits until then).
    func wait() -> Value {
        ready.wait()
        ready.signal()  // for the next waiter
        guard let value = slot.withLock({ $0 }) else { preconditionFailure("signalled before fulfilled") }
        return value
    }
}
