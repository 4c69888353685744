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
        let mine = Result { try here() }
        done.wait()
        try mine.get()
        guard let theirs = outcome.take() else { preconditionFailure("the side job did not finish") }
        return try theirs.get()
    }
}

extension SideBySide {
    /// Three pieces of work at once: `side` and `other` each on a thread of
    /// its own with its own state, `here` on the calling thread. Throws
    /// `here`'s error first, then `side`'s, then `other`'s.
    static func run<State, Side, OtherState, Other>(
        _ state: sending State, side: @escaping @Sendable (sending State) throws -> sending Side,
        _ otherState: sending OtherState, other: @escaping @Sendable (sending OtherState) throws -> sending Other,
        here: () throws -> Void
    ) throws -> sending (Side, Other) {
        let handed = Handoff(otherState)
        let outcome = Handoff<Result<Other, any Error>>()
        let done = DispatchSemaphore(value: 0)
        startProducerThread {
            if let state = handed.take() {
                let result: Result<Other, any Error>
                do {
                    result = .success(try other(state))
                } catch {
                    result = .failure(error)
                }
                outcome.fill { result }
            }
            done.signal()
        }
        // Not `Result { … }`: its closure would keep `state`, which goes to `run` whole.
        let mine: Side
        do {
            mine = try run(state, side: side, here: here)
        } catch {
            done.wait()  // the other thread is done with its state before the error leaves
            throw error
        }
        done.wait()
        guard let theirs = outcome.take() else { preconditionFailure("the other side job did not finish") }
        return (mine, try theirs.get())
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
