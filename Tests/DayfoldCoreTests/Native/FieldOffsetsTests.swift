import Testing

@testable import DayfoldCore

/// The tokenizer's field table keeps every offset through growth, drops an
/// unfinished record's fields, and moves a field whose text was relocated.
@Suite struct FieldOffsetsTests {
    @Test func offsetsSurviveGrowthTruncationAndShifts() {
        let offsets = FieldOffsets(capacity: 1)
        for field in 0..<10_000 { offsets.append(field * 3, field * 3 + 2) }
        #expect(offsets.count == 10_000)
        #expect(offsets.start(9_999) == 29_997)
        #expect(offsets.end(9_999) == 29_999)
        offsets.truncate(to: 5_000)
        #expect(offsets.count == 5_000)
        offsets.append(7, 9)
        #expect(offsets.start(5_000) == 7)
        #expect(offsets.end(5_000) == 9)
        offsets.shift(3, by: 100)
        #expect(offsets.start(3) == 109)
        #expect(offsets.end(3) == 111)
        #expect(offsets.start(4) == 12)
        #expect((0..<5_000).allSatisfy { $0 == 3 || offsets.end($0) - offsets.start($0) == 2 })
    }

    @Test func fillWritesInPlaceAfterTheLastFieldAndKeepsWhatItReports() {
        let offsets = FieldOffsets(capacity: 16)
        for field in 0..<10 { offsets.append(field, field + 1) }
        offsets.fill(atLeast: 100) { starts, ends, room in
            #expect(room >= 100)
            for slot in 0..<50 {
                starts[slot] = Int64(1_000 + slot)
                ends[slot] = Int64(2_000 + slot)
            }
            return 40  // the last ten were scratch: not kept
        }
        #expect(offsets.count == 50)
        #expect((0..<10).allSatisfy { offsets.start($0) == $0 && offsets.end($0) == $0 + 1 })
        #expect((10..<50).allSatisfy { offsets.start($0) == 990 + $0 && offsets.end($0) == 1_990 + $0 })
        offsets.append(7, 8)
        #expect(offsets.start(50) == 7)
    }
}
