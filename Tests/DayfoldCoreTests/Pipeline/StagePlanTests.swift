import Foundation
import Synchronization
import Testing

@testable import DayfoldCore

/// The run's plan: stages run once their inputs exist, a hand-over starts its
/// readers while its stage is still at work, errors reach every later stage
/// without running them, and a value is let go after its last declared read.
@Suite(.serialized) struct StagePlanTests {
    /// Counts the instances alive, to see when the plan lets a value go.
    final class Tracked: Sendable {
        static let alive = Mutex(0)
        let value: Int
        init(_ value: Int) {
            self.value = value
            Tracked.alive.withLock { $0 += 1 }
        }
        deinit { Tracked.alive.withLock { $0 -= 1 } }
    }

    struct Failure: Error, Equatable { var stage: String }

    @Test func stagesReceiveTheirInputsValues() throws {
        let plan = StagePlan()
        let a = plan.stage("a") { 2 }
        let b = plan.stage("b") { 3 }
        let sum = plan.stage("sum", after: a, b) { $0 + $1 }
        let product = plan.stage("product", after: a, b, sum) { $0 * $1 * $2 }
        let text = plan.stage("text", after: a, b, sum, product) { "\($0) \($1) \($2) \($3)" }
        plan.run()
        #expect(try text.result().get() == "2 3 5 30")
    }

    @Test func aHandedOverValueStartsItsReadersBeforeItsStageEnds() throws {
        let plan = StagePlan()
        let early = plan.handover("early", of: Int.self)
        let readerDone = DispatchSemaphore(value: 0)
        // The producer waits for its reader: were the reader started only
        // once the producer ended, this would never finish (the wait times out).
        let producer = plan.stage("producer", handingOver: early) { handOver -> Bool in
            handOver(7)
            return readerDone.wait(timeout: .now() + 10) == .success
        }
        let reader = plan.stage("reader", after: early) { value -> Int in
            readerDone.signal()
            return value * 6
        }
        plan.run()
        #expect(try producer.result().get())
        #expect(try reader.result().get() == 42)
    }

    @Test func aHandOverNeverMadeFailsItsReadersWithTheStagesError() throws {
        let plan = StagePlan()
        let early = plan.handover("early", of: Int.self)
        let producer = plan.stage("producer", handingOver: early) { _ -> Int in throw Failure(stage: "producer") }
        let reader = plan.stage("reader", after: early) { $0 + 1 }
        plan.run()
        #expect(throws: Failure(stage: "producer")) { try reader.result().get() }
        #expect(throws: Failure(stage: "producer")) { try producer.result().get() }

        // A stage that returns without handing over fails its readers too (no hang).
        let second = StagePlan()
        let never = second.handover("never", of: Int.self)
        _ = second.stage("forgetful", handingOver: never) { _ in 1 }
        let waiting = second.stage("waiting", after: never) { $0 }
        second.run()
        #expect(throws: DayfoldError.self) { try waiting.result().get() }
    }

    @Test func anErrorReachesEveryLaterStageWithoutRunningThem() throws {
        let plan = StagePlan()
        let ran = Mutex<[String]>([])
        let source = plan.stage("source") { () -> Int in throw Failure(stage: "source") }
        let middle = plan.stage("middle", after: source) { value -> Int in
            ran.withLock { $0.append("middle") }
            return value
        }
        let other = plan.stage("other") { 1 }
        let last = plan.stage("last", after: middle, other) { a, b -> Int in
            ran.withLock { $0.append("last") }
            return a + b
        }
        plan.run()
        #expect(throws: Failure(stage: "source")) { try last.result().get() }
        #expect(ran.withLock { $0 }.isEmpty)
        #expect(source.failure as? Failure == Failure(stage: "source"))
        #expect(middle.failure as? Failure == Failure(stage: "source"))
    }

    @Test func aValueIsLetGoAfterItsLastRead() throws {
        let before = Tracked.alive.withLock { $0 }
        let plan = StagePlan()
        let gate = DispatchSemaphore(value: 0)
        let source = plan.stage("source") { Tracked(5) }
        let first = plan.stage("first", after: source) { $0.value + 1 }
        // The second reader waits until the test has looked: the value must
        // still be alive for it.
        let second = plan.stage("second", after: source) { tracked -> Int in
            gate.wait()
            return tracked.value + 2
        }
        plan.run()
        #expect(try first.result().get() == 6)
        #expect(Tracked.alive.withLock { $0 } == before + 1)
        gate.signal()
        #expect(try second.result().get() == 7)
        // Both reads done: neither the plan nor a reader holds it.
        #expect(Tracked.alive.withLock { $0 } == before)
    }

    @Test func valuesTheCallerReadAreKeptUntilExitWhenAsked() throws {
        let before = Tracked.alive.withLock { $0 }
        let plan = StagePlan(keepingValuesUntilExit: true)
        let source = plan.stage("source") { Tracked(1) }
        let leaf = plan.stage("leaf", after: source) { Tracked($0.value + 1) }
        plan.run()
        #expect(try leaf.result().get().value == 2)
        // The leaf's value is parked; the source's (read only by a stage) is not.
        #expect(Tracked.alive.withLock { $0 } == before + 1)
    }

    @Test func anIdleStageStillFinishesWhenWaitedFor() throws {
        let plan = StagePlan()
        let idle = plan.stage("idle", idle: true) { (1...1000).reduce(0, +) }
        plan.run()
        #expect(try idle.result().get() == 500_500)
    }
}
