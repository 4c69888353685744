import Testing
@testable import DayfoldCore
@Suite struct ByteStreamTests {
    @Test func placeholderBuilds() { #expect(1 + 1 == 2) }
}
