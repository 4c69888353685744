import Testing

@testable import DayfoldCore

/// Walks that load ahead visit exactly the elements asked for, in the
/// order asked, whatever the order's length against the load distance.
@Suite struct GatherAheadTests {
    @Test(arguments: [0, 1, 3, 4, 5, 8, 9, 16, 17, 40])
    func elementsAreVisitedInTheGivenOrder(count: Int) {
        let values = (0..<50).map { $0 * 10 }
        let order = (0..<count).map { ($0 * 7) % 50 }
        var visited: [Int] = []
        values.forEach(at: order) { visited.append($0) }
        #expect(visited == order.map { values[$0] })
        // A slice of an order, as a row group passes its rows.
        var sliced: [Int] = []
        values.forEach(at: order[(count / 2)...]) { sliced.append($0) }
        #expect(sliced == order[(count / 2)...].map { values[$0] })
    }

    @Test(arguments: [0, 1, 3, 4, 5, 8, 9, 16, 17, 40])
    func elementsComeWithTheirStrings(count: Int) {
        var strings = ByteStrings()
        for index in 0..<50 { _ = strings.append(Array("id\(index)".utf8)) }
        let elements = (0..<50).map { Int32(49 - $0) }
        let order = (0..<count).map { ($0 * 11) % 50 }
        var visited: [String] = []
        let stringIndex = { (element: Int32) in element }
        elements.forEach(at: order, string: stringIndex, of: strings) { element, string in
            visited.append("\(element):" + String(decoding: string.indices.map { string[$0] }, as: UTF8.self))
        }
        #expect(visited == order.map { "\(49 - $0):id\(49 - $0)" })
    }
}
