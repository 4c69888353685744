import Testing

@testable import DayfoldCore

/// `push_deliveries` rows are ordered by (day, delivery id): grouped by day
/// with a counting sort, then by id within a day, or by one comparison sort
/// when the days spread much wider than the rows. Both give exactly the
/// order a comparison sort of every row gives.
@Suite struct DeliveryOrderTests {
    /// `count` deliveries with distinct random ids, on days drawn from `days`.
    static func rows(count: Int, days: ClosedRange<Int32>, seed: UInt64) -> (
        [PushDelivery], [PushDeliveryFact], ByteStrings
    ) {
        var random = SeededRandom(seed: seed)
        var ids = ByteStrings()
        var deliveries: [PushDelivery] = []
        var facts: [PushDeliveryFact] = []
        var used = Set<UInt64>()
        while deliveries.count < count {
            let value = random.next() % 100_000
            guard used.insert(value).inserted else { continue }
            // Ids of different lengths, so byte order is not numeric order.
            let id = ids.append(Array(String(value, radix: 7).utf8))
            deliveries.append(
                PushDelivery(
                    id: id, intent: 0, installation: 0, provider: .expo, status: .sent, attemptCount: nil,
                    knownErrorClass: nil, sentAt: nil, failedAt: nil))
            let span = UInt64(days.upperBound - days.lowerBound) + 1
            facts.append(
                PushDeliveryFact(
                    outcome: .sentUnconfirmed, errorClass: nil,
                    day: LocalDate(days: days.lowerBound + Int32(random.next() % span))))
        }
        return (deliveries, facts, ids)
    }

    static func compared(_ deliveries: [PushDelivery], _ facts: [PushDeliveryFact], _ ids: ByteStrings) -> [Int] {
        deliveries.indices.sorted {
            facts[$0].day != facts[$1].day
                ? facts[$0].day < facts[$1].day : ids.less(deliveries[$0].id, deliveries[$1].id)
        }
    }

    @Test(arguments: [
        (count: 500, days: Int32(20_000)...Int32(20_030)),  // counted by day, many rows a day
        (count: 300, days: Int32(20_000)...Int32(20_000)),  // one day: the ids alone
        (count: 200, days: Int32(-700_000)...Int32(2_900_000)),  // stray years: one comparison sort
        (count: 0, days: Int32(0)...Int32(0)),
    ])
    func theOrderIsByDayThenID(count: Int, days: ClosedRange<Int32>) {
        for seed in UInt64(1)...UInt64(5) {
            let (deliveries, facts, ids) = Self.rows(count: count, days: days, seed: seed)
            let order = ReportTables.deliveryOrder(deliveries, facts: facts, ids: ids)
            #expect(order == Self.compared(deliveries, facts, ids), "seed \(seed)")
            #expect(Set(order).count == count)
        }
    }
}
