import Dispatch
import Synchronization

/// Two pieces of work at once: `side` on a thread of its own, `here` on the
/// calling thread, for work that mutates state (an ingestor and its forks)
/// rather than only reading shared values as `ParallelJobs` jobs do.
///
/// The side's state is `sending`: handed over whole, used by the side
/// thread alone, and handed back with its result. The compiler checks that
/// the caller keeps no way to reach it meanwhile (`here` cannot touch it).
enum SideBySide {
    /// Runs both and waits for both; throws `here`'s error first, then the
    /// side's (the order a reading in sequence meets them).
    static func run<State, Side>(
        _ state: sending State, side: @escaping @Sendable (sending State) throws -> sending Side,
        here: () throws -> Void
    ) throws -> sending Side {
        let started = begin(state, side)
        let mine = Result { try here() }
        let theirs = started.finish()
        try mine.get()
        return try theirs.get()
    }

    /// A side job on a thread of its own; `finish()` waits for it and hands back its result.
    struct Started<Side> {
        fileprivate let outcome: Handoff<Result<Side, any Error>>
        fileprivate let done: DispatchSemaphore

        func finish() -> sending Result<Side, any Error> {
            done.wait()
            guard let result = outcome.take() else { preconditionFailure("the side job did not finish") }
            return result
        }
    }

    /// Starts `side` on a thread of its own and returns at once, for a
    /// caller with work of its own to do (and to hand on) before it needs the
    /// side's result. The caller must `finish()` it on every path, errors
    /// included: the side's state is the side's until then.
    static func begin<State, Side>(
        _ state: sending State, _ side: @escaping @Sendable (sending State) throws -> sending Side
    ) -> Started<Side> {
        let handed = Handoff(state)
        let outcome = Handoff<Result<Side, any Error>>()
        let done = DispatchSemaphore(value: 0)
        startProducerThread {
            if let state = handed.take() {
                // Not `Result { … }`: a closure's captures stay with the
                // closure, and `state` must go to `side` whole.
                let result: Result<Side, any Error>
                do {
                    result = .success(try side(state))
                } catch {
                    result = .failure(error)
                }
                outcome.fill { result }
            }
            done.signal()
        }
        return Started(outcome: outcome, done: done)
    }
}

/// One value moved from one thread to another: put in whole, taken out whole.
private final class Handoff<Value>: Sendable {
    private let slot: Mutex<Value?>

    init(_ value: sending Value) { slot = Mutex(value) }
    init() { slot = Mutex(nil) }

    /// Stores what `make` gives (made under the lock: a value made outside
    /// it could not be proven to be handed over whole).
    func fill(_ make: sending () -> Value) { slot.withLock { $0 = make() } }

    func take() -> sending Value? { slot.withLock { $0.take() } }
}
