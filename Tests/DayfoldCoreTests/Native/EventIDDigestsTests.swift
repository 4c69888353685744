import Testing

@testable import DayfoldCore

/// An event id is the hex SHA-256 of `task id|event type` (SPEC §7),
/// whether made one at a time or two side by side, short or long.
@Suite struct EventIDDigestsTests {
    static let ids = ["t1", "", "task-0001-aaaa-bbbb-cccc-dddd-eeee-ffff", String(repeating: "x", count: 60)]
    static let names = ["COMPLETED", "SKIPPED", "MISSED", ""]

    @Test func oneIdIsTheDigestOfIdBarName() {
        for id in Self.ids {
            for name in Self.names {
                var output: [UInt8] = []
                EventIDDigests.append(Array(id.utf8).span, Array(name.utf8).span, into: &output)
                #expect(String(decoding: output, as: UTF8.self) == SHA256Hasher.hex(id + "|" + name), "\(id) \(name)")
            }
        }
    }

    @Test func twoIdsSideBySideAreEachDigestInOrder() {
        for (first, second) in zip(Self.ids, Self.ids.reversed()) {
            for (firstName, secondName) in zip(Self.names, Self.names.reversed()) {
                var output: [UInt8] = []
                EventIDDigests.appendPair(
                    Array(first.utf8).span, Array(firstName.utf8).span, Array(second.utf8).span,
                    Array(secondName.utf8).span,
                    into: &output)
                let expected = SHA256Hasher.hex(first + "|" + firstName) + SHA256Hasher.hex(second + "|" + secondName)
                #expect(String(decoding: output, as: UTF8.self) == expected)
            }
        }
    }
}
