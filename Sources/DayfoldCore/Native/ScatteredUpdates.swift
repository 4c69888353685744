/// Updates of a table of rows (an array of arrays) in an order of the
/// caller's, each landing somewhere else in memory (outcomes in file order
/// bumping counters of days kept by relationship): each update would wait on
/// a cache miss, so the walk requests the slot of the update a few visits
/// ahead (`prefetchElement`) and the CPU overlaps the misses. The caller
/// says which slot each visit updates and how; how far ahead to load is
/// decided here.
extension Array {
    /// How many visits ahead a slot is requested.
    private static var updateDistance: Int { 16 }

    /// For each visit `0..<count`, in order: `body(visit, &self[row][column])`
    /// where `slot(visit)` is `(row, column)`; a visit whose slot is nil is
    /// passed over.
    @inline(__always)
    mutating func updateScattered<Row>(
        visits count: Int, slot: (Int) -> (row: Int, column: Int)?, _ body: (Int, inout Row) -> Void
    ) where Element == [Row] {
        let ahead = Self.updateDistance
        for visit in 0..<count {
            if visit + ahead < count, let next = slot(visit + ahead), indices.contains(next.row) {
                prefetchElement(self[next.row], next.column)
            }
            guard let target = slot(visit) else { continue }
            body(visit, &self[target.row][target.column])
        }
    }
}
