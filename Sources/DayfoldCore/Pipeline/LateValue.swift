import Synchronization

/// A value computed on a thread of its own whose work is started later, by
/// a callback in the middle of another stage (the stage hands over what the
/// work needs as soon as it has it). `value()` waits for it, and is nil when
/// the work was never started.
final class LateValue<Value: Sendable>: Sendable {
    private let background = Mutex<BackgroundValue<Value>?>(nil)

    /// Starts the work (once).
    func start(_ body: @escaping @Sendable () -> Value) {
        background.withLock {
            precondition($0 == nil, "a late value is started once")
            $0 = BackgroundValue(body)
        }
    }

    /// Waits for the value; nil when `start` was never called.
    func value() -> Value? {
        background.withLock { $0 }?.value()
    }
}
