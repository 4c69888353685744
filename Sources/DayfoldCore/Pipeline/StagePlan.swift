import Foundation
import Synchronization

/// The stages of a run as a graph of values, declared first and then run.
///
/// A stage is a function of the values it names. Once `run()` is called the
/// plan starts every stage on a thread of its own, and a stage's body runs
/// as soon as its inputs exist: stages overlap exactly where their inputs
/// allow, and no stage starts another (the callbacks that once did are gone).
///
/// A value lives as long as a reader of it is still to come: a stage's value
/// is read by the stages declared after it, or, when none is, once by the
/// caller (`Stage.result()`); the plan lets go of it after its last read.
/// (With `keepingValuesUntilExit`, the values the caller read are parked
/// for the rest of the process: a command that exits right after its run
/// saves freeing millions of rows one allocation at a time. Values only
/// stages read still go as soon as they are done with: the writing reuses
/// their memory.)
///
/// A failed stage's error reaches every stage that reads it, directly or
/// not, without their bodies running, and the caller reads it from the
/// leaves.
final class StagePlan: Sendable {
    private struct Declared {
        /// What `run()` starts, in declaration order.
        var starters: [@Sendable () -> Void] = []
        /// Fixes each stage's number of reads once the graph is whole.
        var seals: [@Sendable () -> Void] = []
        var running = false
    }

    private let declared = Mutex(Declared())
    private let keepsValues: Bool

    init(keepingValuesUntilExit: Bool = false) {
        keepsValues = keepingValuesUntilExit
    }

    /// Values kept for the rest of the process, shared by every plan that keeps them.
    private static let untilExit = Mutex<[any Sendable]>([])

    /// A stage of no inputs. `idle`: it runs in Linux's idle scheduling
    /// class (work wanted only at the end: it fills the moments the other
    /// stages leave a core free) until `Stage.prioritize()` or a read.
    func stage<Value: Sendable>(
        _ name: String, idle: Bool = false, _ body: @escaping @Sendable () throws -> Value
    ) -> Stage<Value> {
        declare(Stage<Value>(name, plan: self)) { stage in
            if idle { stage.enterIdleClass() }
            stage.finish(Result { try body() })
        }
    }

    /// A stage of one input.
    func stage<A: Sendable, Value: Sendable>(
        _ name: String, after a: Stage<A>, _ body: @escaping @Sendable (A) throws -> Value
    ) -> Stage<Value> {
        a.addReader()
        return declare(Stage<Value>(name, plan: self)) { stage in
            stage.finish(Result { try body(a.take()) })
        }
    }

    /// A stage of two inputs (read in the order given).
    func stage<A: Sendable, B: Sendable, Value: Sendable>(
        _ name: String, after a: Stage<A>, _ b: Stage<B>, _ body: @escaping @Sendable (A, B) throws -> Value
    ) -> Stage<Value> {
        a.addReader()
        b.addReader()
        return declare(Stage<Value>(name, plan: self)) { stage in
            stage.finish(Result { try body(a.take(), b.take()) })
        }
    }

    /// A stage of three inputs (read in the order given).
    func stage<A: Sendable, B: Sendable, C: Sendable, Value: Sendable>(
        _ name: String, after a: Stage<A>, _ b: Stage<B>, _ c: Stage<C>,
        _ body: @escaping @Sendable (A, B, C) throws -> Value
    ) -> Stage<Value> {
        a.addReader()
        b.addReader()
        c.addReader()
        return declare(Stage<Value>(name, plan: self)) { stage in
            stage.finish(Result { try body(a.take(), b.take(), c.take()) })
        }
    }

    /// A stage of four inputs (read in the order given).
    func stage<A: Sendable, B: Sendable, C: Sendable, D: Sendable, Value: Sendable>(
        _ name: String, after a: Stage<A>, _ b: Stage<B>, _ c: Stage<C>, _ d: Stage<D>,
        _ body: @escaping @Sendable (A, B, C, D) throws -> Value
    ) -> Stage<Value> {
        for reader in [a.addReader, b.addReader, c.addReader, d.addReader] { reader() }
        return declare(Stage<Value>(name, plan: self)) { stage in
            stage.finish(Result { try body(a.take(), b.take(), c.take(), d.take()) })
        }
    }

    /// A stage of no inputs that also hands over a second value before it
    /// ends (`early`): the stages reading `early` start while this one is
    /// still at work. When the body ends without handing it over, `early`
    /// fails with the body's error (or a stage error, if the body returned).
    func stage<Early: Sendable, Value: Sendable>(
        _ name: String, handingOver early: Stage<Early>, _ body: @escaping @Sendable (Handover<Early>) throws -> Value
    ) -> Stage<Value> {
        declare(Stage<Value>(name, plan: self)) { stage in
            let outcome = Result { try body(Handover(early)) }
            early.finishUnlessHandedOver(outcome.map { _ in () }, by: name)
            stage.finish(consume outcome)
        }
    }

    /// A stage of no inputs that hands over two values before it ends (see
    /// the one-value form).
    func stage<Early: Sendable, Later: Sendable, Value: Sendable>(
        _ name: String, handingOver early: Stage<Early>, _ later: Stage<Later>,
        _ body: @escaping @Sendable (Handover<Early>, Handover<Later>) throws -> Value
    ) -> Stage<Value> {
        declare(Stage<Value>(name, plan: self)) { stage in
            let outcome = Result { try body(Handover(early), Handover(later)) }
            early.finishUnlessHandedOver(outcome.map { _ in () }, by: name)
            later.finishUnlessHandedOver(outcome.map { _ in () }, by: name)
            stage.finish(consume outcome)
        }
    }

    /// A value that a stage hands over before it ends (see
    /// `stage(_:handingOver:_:)`); stages read it as any other.
    func handover<Value: Sendable>(_ name: String, of: Value.Type = Value.self) -> Stage<Value> {
        declare(Stage<Value>(name, plan: self), nil)
    }

    /// Starts every stage. The graph is whole from here on: a stage declared
    /// later would find the values it names already let go.
    func run() {
        let (starters, seals) = declared.withLock { declared -> ([@Sendable () -> Void], [@Sendable () -> Void]) in
            precondition(!declared.running, "a plan runs once")
            declared.running = true
            return (declared.starters, declared.seals)
        }
        for seal in seals { seal() }
        for start in starters { startProducerThread(start) }
    }

    /// `body`: what the stage's thread does (nil: a hand-over, which has none).
    private func declare<Value: Sendable>(
        _ stage: Stage<Value>, _ body: (@Sendable (Stage<Value>) -> Void)?
    ) -> Stage<Value> {
        declared.withLock {
            precondition(!$0.running, "stages are declared before the plan runs")
            if let body { $0.starters.append { body(stage) } }
            $0.seals.append { stage.seal() }
        }
        return stage
    }

    /// Keeps a value the caller read to the end of the process, if this plan does.
    fileprivate func keep(_ value: any Sendable) {
        if keepsValues { StagePlan.untilExit.withLock { $0.append(value) } }
    }
}

/// One stage's value: known once the stage has run (or failed).
final class Stage<Value: Sendable>: Sendable {
    let name: String
    private let plan: StagePlan
    private let known = DispatchSemaphore(value: 0)
    private let state = Mutex(State())

    private struct State {
        var outcome: Result<Value, any Error>?
        /// Stages declared to read the value.
        var readers = 0
        /// Reads left before the value is let go (fixed when the plan runs).
        var readsLeft = 0
        var finishedAt: Date?
        var handedOver = false
        var idleThread: Int32?
        var wanted = false
    }

    fileprivate init(_ name: String, plan: StagePlan) {
        self.name = name
        self.plan = plan
    }

    /// When the stage ended (nil before).
    var finishedAt: Date? { state.withLock { $0.finishedAt } }

    /// The stage's error, if it (or a stage it reads) failed; kept after the value is let go.
    var failure: (any Error)? {
        state.withLock {
            if case .failure(let error) = $0.outcome { return error }
            return nil
        }
    }

    /// Moves an idle stage to the normal class now, without waiting for it:
    /// for work that would otherwise be left to run alone at the end.
    func prioritize() {
        state.withLock {
            $0.wanted = true
            if let thread = $0.idleThread { IdleThreadPolicy.leave(thread) }
        }
    }

    /// The value for the caller, who reads a stage that no stage reads (once).
    func result() -> Result<Value, any Error> {
        prioritize()
        return Result { try take() }
    }

    fileprivate func addReader() {
        state.withLock { $0.readers += 1 }
    }

    fileprivate func seal() {
        state.withLock { $0.readsLeft = max($0.readers, 1) }
    }

    /// Puts the calling thread (the stage's own) in the idle class, unless
    /// the value is already wanted.
    fileprivate func enterIdleClass() {
        state.withLock {
            if !$0.wanted { $0.idleThread = IdleThreadPolicy.enter() }
        }
    }

    /// Waits for the value and counts the read; the last read lets it go.
    fileprivate func take() throws -> Value {
        known.wait()
        known.signal()
        let (outcome, readByCaller) = state.withLock { state -> (Result<Value, any Error>?, Bool) in
            let outcome = state.outcome
            state.readsLeft -= 1
            if state.readsLeft == 0, case .success = outcome { state.outcome = nil }
            return (outcome, state.readers == 0)
        }
        guard let outcome else { preconditionFailure("stage \(name) was read more often than the plan declared") }
        if readByCaller, case .success(let value) = outcome { plan.keep(value) }
        return try outcome.get()
    }

    /// Takes the outcome over (`consuming`): once its readers are told, the
    /// stage's thread holds no reference to the value, so their last read
    /// lets it go (a caller's temporary could outlive the reads by a moment).
    fileprivate func finish(_ outcome: consuming Result<Value, any Error>) {
        var pending = Optional(consume outcome)
        state.withLock {
            $0.idleThread = nil
            $0.outcome = pending.take()
            $0.finishedAt = Date()
        }
        known.signal()
    }

    fileprivate func handOver(_ value: Value) {
        let first = state.withLock { state -> Bool in
            defer { state.handedOver = true }
            return !state.handedOver
        }
        precondition(first, "\(name) is handed over once")
        finish(.success(value))
    }

    /// Fails a hand-over its stage ended without making.
    fileprivate func finishUnlessHandedOver(_ outcome: Result<Void, any Error>, by stage: String) {
        let pending = state.withLock { state -> Bool in
            defer { state.handedOver = true }
            return !state.handedOver
        }
        guard pending else { return }
        switch outcome {
        case .failure(let error): finish(.failure(error))
        case .success:
            finish(.failure(DayfoldError(.output, "stage \(stage) ended without handing over \(name)")))
        }
    }
}

/// What a running stage hands over early (see `StagePlan.handover(_:of:)`).
/// Public because ingest takes one: the client side's inputs are handed over
/// through it.
public struct Handover<Value: Sendable>: Sendable {
    private let stage: Stage<Value>

    fileprivate init(_ stage: Stage<Value>) { self.stage = stage }

    /// Hands the value over (once): its readers start now.
    public func callAsFunction(_ value: Value) { stage.handOver(value) }
}
