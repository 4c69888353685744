import Foundation
import Synchronization
import Testing

@testable import DayfoldCore

/// An idle background value runs in Linux's idle class until someone waits
/// for it, then in the normal class: never left starving while a run waits.
@Suite struct BackgroundValueTests {
    private static let idleClass: Int32 = 5

    @Test func idleWorkRunsInTheIdleClassUntilWaitedFor() {
        let started = DispatchSemaphore(value: 0)
        let value = BackgroundValue(idle: true) { () -> Int32 in
            let policy = sched_getscheduler(0)
            started.signal()
            return policy
        }
        // The class was read before anybody waited: idle (where it may be left again).
        started.wait()
        #expect(value.value() == (IdleThreadPolicy.canLeave ? Self.idleClass : 0))
    }

    @Test func waitingForIdleWorkGivesItTheNormalClass() {
        let started = DispatchSemaphore(value: 0)
        let proceed = DispatchSemaphore(value: 0)
        let value = BackgroundValue(idle: true) { () -> Int32 in
            started.signal()
            proceed.wait()
            return sched_getscheduler(0)
        }
        started.wait()
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.05) { proceed.signal() }
        #expect(value.value() == 0)
    }

    /// `prioritize` moves the work to the normal class while it runs, before
    /// anybody waits (the class is read while the caller does not wait).
    @Test func prioritizedIdleWorkRunsInTheNormalClassBeforeAnyWait() {
        let started = DispatchSemaphore(value: 0)
        let proceed = DispatchSemaphore(value: 0)
        let read = DispatchSemaphore(value: 0)
        let policy = LockedPolicy()
        let value = BackgroundValue(idle: true) { () -> Int32 in
            started.signal()
            proceed.wait()
            policy.value = sched_getscheduler(0)
            read.signal()
            return 0
        }
        started.wait()
        value.prioritize()
        proceed.signal()
        read.wait()
        #expect(policy.value == 0)
        _ = value.value()
    }

    /// A chain of values (an as-of series' client sides, its writing): a
    /// link that waits for the one before with `waitUntilDone` runs after
    /// it even when that one is slow, and the value is still there for its
    /// owner, whoever waited first; any number may wait.
    @Test func aLinkThatWaitsForTheOneBeforeRunsAfterIt() {
        let order = Mutex<[Int]>([])
        let proceed = DispatchSemaphore(value: 0)
        let first = BackgroundValue { () -> Int in
            proceed.wait()
            order.withLock { $0.append(1) }
            return 1
        }
        let second = BackgroundValue { () -> Int in
            first.waitUntilDone()
            order.withLock { $0.append(2) }
            return 2
        }
        let third = BackgroundValue { () -> Int in
            first.waitUntilDone()
            second.waitUntilDone()
            order.withLock { $0.append(3) }
            return 3
        }
        // Neither later link may run before the first is let go.
        Thread.sleep(forTimeInterval: 0.05)
        #expect(order.withLock { $0 }.isEmpty)
        proceed.signal()
        #expect(third.value() == 3 && second.value() == 2 && first.value() == 1)
        #expect(order.withLock { $0 } == [1, 2, 3])
        // Waiting after the value was taken returns at once.
        first.waitUntilDone()
    }

    private final class LockedPolicy: Sendable {
        private let stored = Mutex<Int32>(-1)
        var value: Int32 {
            get { stored.withLock { $0 } }
            set { stored.withLock { $0 = newValue } }
        }
    }

    @Test func normalWorkKeepsItsClass() {
        let value = BackgroundValue { sched_getscheduler(0) }
        #expect(value.value() == 0)
    }
}
