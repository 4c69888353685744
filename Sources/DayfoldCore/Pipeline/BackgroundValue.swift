import Foundation
import Synchronization

/// A value computed on a thread of its own while the caller goes on; `value()`
/// waits for it. A thread, not a dispatch queue: callers are often dispatch
/// workers themselves (parallel jobs), and dispatch's pool may have no thread
/// left to run the work they wait for.
final class BackgroundValue<Value: Sendable>: Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let state = Mutex(State())

    /// The result once computed, and the idle worker and its waiter.
    private struct State {
        var result: Value?
        var idleThread: Int32?
        var wanted = false
    }

    /// `idle`: the work runs in Linux's idle scheduling class, for work whose
    /// result is wanted only at the end: it fills the moments the other
    /// threads leave a core free instead of taking time from them. Once
    /// `value()` waits for it, it runs as any thread does.
    init(idle: Bool = false, _ body: @escaping @Sendable () -> Value) {
        startProducerThread {
            if idle {
                self.state.withLock {
                    if !$0.wanted { $0.idleThread = IdleThreadPolicy.enter() }
                }
            }
            let result = body()
            self.state.withLock {
                $0.idleThread = nil
                $0.result = result
            }
            self.done.signal()
        }
    }

    /// Moves idle work to the normal class now, without waiting for it: for
    /// work that would otherwise be left to run alone at the end, once the
    /// caller knows the cores will stay busy until then.
    func prioritize() {
        state.withLock {
            $0.wanted = true
            if let idleThread = $0.idleThread { IdleThreadPolicy.leave(idleThread) }
        }
    }

    /// Waits until the value is computed and leaves it for `value()`: a
    /// link of a chain of steps waits this way for the link before to end.
    /// Any number of callers may wait.
    func waitUntilDone() {
        prioritize()
        done.wait()
        done.signal()
    }

    /// Waits for the value (take it once).
    func value() -> Value {
        waitUntilDone()
        guard let result = state.withLock({ $0.result.take() }) else {
            preconditionFailure("BackgroundValue finished without a value")
        }
        return result
    }
}
