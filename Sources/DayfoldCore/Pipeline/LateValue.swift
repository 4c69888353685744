import Foundation

/// A value computed on a thread of its own whose work is started later, by
/// a callback in the middle of another stage (the stage hands over what the
/// work needs as soon as it has it). `value()` waits for it, and is nil when
/// the work was never started.
final class LateValue<Value>: @unchecked Sendable {
    private var background: BackgroundValue<Value>?
    private let lock = NSLock()

    /// Starts the work (once).
    func start(_ body: @escaping @Sendable () -> Value) {
        lock.withLock {
            precondition(background == nil, "a late value is started once")
            background = BackgroundValue(body)
        }
    }

    /// Waits for the value; nil when `start` was never called.
    func value() -> Value? {
        lock.withLock { background }?.value()
    }
}
