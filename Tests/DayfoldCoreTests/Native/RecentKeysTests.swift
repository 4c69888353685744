import Testing

@testable import DayfoldCore

/// The small cache in front of the instances' zone, kind and schema tables:
/// it may only ever answer with the value stored for exactly those bytes.
@Suite struct RecentKeysTests {
    private func bytes(_ text: String) -> ArraySlice<UInt8> { Array(text.utf8)[...] }

    @Test func findsEachOfTheLastKeysByTheirExactBytes() {
        var recent = RecentKeys<Int>()
        let kinds = ["MEAL", "HABIT", "WORKOUT", "CHECK_IN", "MEAL_", "MEAK"]
        for (index, kind) in kinds.prefix(4).enumerated() { recent.store(bytes(kind), index) }
        for (index, kind) in kinds.prefix(4).enumerated() {
            #expect(recent.value(for: bytes(kind)) == index, "\(kind)")
        }
        // Same length or same prefix is not the same key.
        #expect(recent.value(for: bytes("MEAK")) == nil)
        #expect(recent.value(for: bytes("MEAL_")) == nil)
        #expect(recent.value(for: bytes("MEA")) == nil)
    }

    @Test func aNewKeyReplacesTheOldestOnceTheSlotsAreFull() {
        var recent = RecentKeys<Int>()
        let count = RecentKeys<Int>.slots + 1
        for index in 0..<count { recent.store(bytes("zone-\(index)"), index) }
        #expect(recent.value(for: bytes("zone-0")) == nil)
        for index in 1..<count { #expect(recent.value(for: bytes("zone-\(index)")) == index) }
    }

    @Test func keysLongerThanTheLimitAreNotKeptAndTheEmptyKeyIs() {
        var recent = RecentKeys<String>()
        let long = String(repeating: "x", count: RecentKeys<String>.maxKeyBytes + 1)
        recent.store(bytes(long), "long")
        #expect(recent.value(for: bytes(long)) == nil)
        recent.store(bytes(""), "empty")
        #expect(recent.value(for: bytes("")) == "empty")
        #expect(recent.value(for: bytes("a")) == nil)
    }

    @Test func makesAValueOnlyOnAMiss() {
        var recent = RecentKeys<Int>()
        var made = 0
        for kind in ["MEAL", "HABIT", "MEAL", "HABIT", "MEAL"] {
            _ = recent.value(for: bytes(kind)) {
                made += 1
                return made
            }
        }
        #expect(made == 2)
        #expect(recent.value(for: bytes("HABIT")) == 2)
    }
}

/// The tests' keys are slices of arrays; the ingest hands the cache fields
/// read in place.
extension RecentKeys {
    fileprivate func value(for key: ArraySlice<UInt8>) -> Value? {
        key.withUnsafeBufferPointer { value(for: $0) }
    }

    fileprivate mutating func value(for key: ArraySlice<UInt8>, _ make: () -> Value) -> Value {
        key.withUnsafeBufferPointer { value(for: $0, make) }
    }
}
