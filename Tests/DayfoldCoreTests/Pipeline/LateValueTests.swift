import Foundation
import Testing

@testable import DayfoldCore

/// A late value is started from a callback in the middle of another stage
/// (the event snapshot, from the task outcomes): waiting gives its result,
/// and a value never started says so instead of blocking.
@Suite struct LateValueTests {
    @Test func aValueNeverStartedIsNil() {
        let late = LateValue<Int>()
        #expect(late.value() == nil)
    }

    @Test func aStartedValueIsWaitedFor() {
        let late = LateValue<Int>()
        let proceed = DispatchSemaphore(value: 0)
        late.start {
            proceed.wait()
            return 42
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.05) { proceed.signal() }
        #expect(late.value() == 42)
    }
}
