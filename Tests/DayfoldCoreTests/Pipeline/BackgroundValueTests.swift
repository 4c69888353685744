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
