/// Rows already in a table's key order, regrouped into month blocks: each
/// calendar month's rows, oldest month first, in key order inside a month
/// (a stable regrouping), and where each block begins.
///
/// Why a snapshot is laid out so (Decisions.md, "Snapshots are laid out in
/// month blocks"): a new night changes the last days, not the closed
/// months, so a month block that did not change is the same row groups in
/// the next run's file, and a nightly run can take them as they were.
struct MonthBlockOrder: Sendable, Equatable {
    /// The rows, month by month.
    var rows: [Int]
    /// The positions in `rows` where a month begins (ascending, from 0).
    var blockStarts: [Int]
    /// Each block's month (`RelationshipDaySegments.monthIndex`).
    var months: [Int]

    /// `rows` in key order; `month` gives a row's month.
    init(_ rows: [Int], month: (Int) -> Int) {
        let monthOf = rows.map(month)
        guard let first = monthOf.min(), let last = monthOf.max() else {
            self.rows = []
            blockStarts = [0]
            months = []
            return
        }
        // A counting sort by month: rows keep their order inside a month.
        var counts = [Int](repeating: 0, count: last - first + 1)
        for value in monthOf { counts[value - first] += 1 }
        var next = [Int](repeating: 0, count: counts.count)
        var starts: [Int] = []
        var months: [Int] = []
        var total = 0
        for (offset, count) in counts.enumerated() where count > 0 {
            next[offset] = total
            starts.append(total)
            months.append(first + offset)
            total += count
        }
        var ordered = [Int](repeating: 0, count: rows.count)
        for (row, value) in zip(rows, monthOf) {
            ordered[next[value - first]] = row
            next[value - first] += 1
        }
        self.rows = ordered
        blockStarts = starts
        self.months = months
    }
}
