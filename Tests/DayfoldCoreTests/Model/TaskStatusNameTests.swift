import Testing

@testable import DayfoldCore

/// A status field is matched by its exact bytes (SPEC §1.3's closed
/// vocabulary, case included): every name, and nothing that is one byte off.
@Suite struct TaskStatusNameTests {
    private func named(_ text: String) -> TaskStatus? {
        TaskStatus.named(Array(text.utf8)[...])
    }

    @Test func everyNameIsItsStatus() {
        for status in TaskStatus.allCases {
            #expect(named(status.rawValue) == status)
            // A slice that does not start at its array's start.
            let padded = Array(("x" + status.rawValue + "y").utf8)
            #expect(TaskStatus.named(padded[1..<(padded.count - 1)]) == status)
        }
    }

    @Test func nearMissesAreNoStatus() {
        for status in TaskStatus.allCases {
            let name = status.rawValue
            #expect(named(name.lowercased()) == nil)
            #expect(named(String(name.dropLast())) == nil)
            #expect(named(String(name.dropFirst())) == nil)
            #expect(named(name + " ") == nil)
            #expect(named(" " + name) == nil)
            // Each byte changed in turn (the first word's and the second's).
            for index in name.utf8.indices {
                var bytes = Array(name.utf8)
                let offset = name.utf8.distance(from: name.utf8.startIndex, to: index)
                bytes[offset] ^= 0x01
                #expect(TaskStatus.named(bytes[...]) == nil, "\(name) byte \(offset)")
            }
        }
        for text in ["", "DONE", "COMPLETED_", "IN_PROGRESS_X", "SUPERSEDED!"] { #expect(named(text) == nil) }
    }
}
