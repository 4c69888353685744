import Testing

@testable import DayfoldCore

/// A series step tests again only the groups of linked rows with a row
/// between its as-of and the step before's (`TaskRowDecisions`); its
/// decisions must be those of every per-step row tested again in file order
/// (`TaskRowSteps.perStepAccepted`), stepping forward or back.
@Suite struct TaskRowDecisionsTests {
    static let hour: Int64 = 3_600_000_000

    /// Rows whose ids and retry keys come from small pools, so that groups
    /// of two, three and more form, some rows before the first step, some
    /// after the last.
    static func rows(seed: UInt64, count: Int) -> TaskRowCandidates<Int> {
        var random = SeededRandom(seed: seed)
        var rows = TaskRowCandidates<Int>()
        for row in 0..<count {
            let instant = Instant(micros: Int64(random.below(120)) * hour)
            let retry: UInt64? = random.below(3) == 0 ? nil : UInt64(random.below(count / 2 + 1))
            rows.append(row, at: instant, idKey: UInt64(random.below(count)), retryKey: retry)
        }
        return rows
    }

    @Test func carriedDecisionsEqualEveryRowTestedAgain() {
        for seed in UInt64(1)...40 {
            let rows = Self.rows(seed: seed, count: 60)
            let from = Instant(micros: 24 * Self.hour)
            let steps = TaskRowSteps(rows, from: from)
            var decisions = TaskRowDecisions(steps)
            var random = SeededRandom(seed: seed &+ 1000)
            var accepted = [Bool](repeating: false, count: steps.perStepPositions.count)
            // Forward a few hours at a time, then a few steps back and on.
            var hours: [Int64] = Array(stride(from: 24, through: 110, by: 5))
            for _ in 0..<8 { hours.append(24 + Int64(random.below(90))) }
            for hour in hours {
                let asOf = Instant(micros: hour * Self.hour)
                let changed = decisions.advance(to: asOf, steps: steps, rows: rows)
                let want = steps.perStepAccepted(rows, asOf: asOf)
                #expect(decisions.accepted == want, "seed \(seed), as of hour \(hour)")
                // What changed is exactly what differs from the step before.
                #expect(
                    Set(changed) == Set(want.indices.filter { want[$0] != accepted[$0] }),
                    "seed \(seed), as of hour \(hour): the changed rows")
                accepted = want
            }
        }
    }

    /// A group whose first row (in file order) comes in after its retry:
    /// the retry is accepted until the first row's instant, then it is the
    /// duplicate; a third row chained by the retry's key follows its fate.
    @Test func aLaterFirstRowTakesTheAcceptanceFromItsRetry() {
        var rows = TaskRowCandidates<Int>()
        let at = { (hours: Int64) in Instant(micros: hours * Self.hour) }
        rows.append(0, at: at(50), idKey: 1, retryKey: 100)  // e1, first in the file, comes in late
        rows.append(1, at: at(30), idKey: 1, retryKey: 101)  // e1 again, early
        rows.append(2, at: at(31), idKey: 2, retryKey: 101)  // shares e1's early retry key
        rows.append(3, at: at(10), idKey: 3, retryKey: nil)  // alone, before the first step
        let steps = TaskRowSteps(rows, from: at(24))
        #expect(steps.perStepPositions == [0, 1, 2])
        var decisions = TaskRowDecisions(steps)
        #expect(Set(decisions.advance(to: at(24), steps: steps, rows: rows)).isEmpty)
        #expect(decisions.accepted == [false, false, false])
        #expect(Set(decisions.advance(to: at(30), steps: steps, rows: rows)) == [1])
        #expect(decisions.accepted == [false, true, false])
        // Row 2's retry key was claimed by row 1: a duplicate, no change.
        #expect(Set(decisions.advance(to: at(40), steps: steps, rows: rows)).isEmpty)
        #expect(decisions.accepted == [false, true, false])
        // Row 0 comes in: it claims e1, so row 1 is its duplicate and row 2,
        // whose key row 1 no longer claims, is accepted.
        #expect(Set(decisions.advance(to: at(50), steps: steps, rows: rows)) == [0, 1, 2])
        #expect(decisions.accepted == [true, false, true])
        // Back before row 0: as at hour 40 again.
        #expect(Set(decisions.advance(to: at(45), steps: steps, rows: rows)) == [0, 1, 2])
        #expect(decisions.accepted == [false, true, false])
    }
}
