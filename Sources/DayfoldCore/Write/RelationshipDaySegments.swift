/// The order of `relationship_days`' rows, as segments: runs of one
/// relationship's consecutive days, read in place from its day table.
///
/// The report (`coach_daily_summary.csv`) is sorted by its keys, SPEC §7:
/// each relationship's days, relationships in id order. The snapshot is laid
/// out in **month blocks** (Decisions.md, "Snapshots are laid out in month
/// blocks"): the rows of each calendar month of `local_date`, oldest month
/// first, in the report's order inside a month; a row group never spans two
/// months. A month whose days did not change between two runs (an as-of
/// series' steps, a nightly run) is then the same column chunks.
struct RelationshipDaySegments: Sendable {
    /// One relationship's days `days` (positions in its day table).
    struct Segment: Sendable, Equatable {
        var relationship: Int
        var days: Range<Int>
    }

    var segments: [Segment]
    /// `starts[p]` is the first row of segment `p`; the last is the row count.
    var starts: [Int]
    /// The rows where a block begins (ascending, from 0): a row group of the
    /// snapshot never spans two blocks.
    var blockStarts: [Int]
    /// Each block's month (`year * 12 + month - 1`), for the month layout.
    var blockMonths: [Int]
    /// Each block's segments (positions in `segments`), for the month layout.
    var blockSegments: [Range<Int>]

    /// Every relationship's days whole, relationships in `order`: the report's order, one block.
    static func byRelationship(order: [Int], tables: [[RelationshipDay]]) -> RelationshipDaySegments {
        let segments = order.map { Segment(relationship: $0, days: 0..<tables[$0].count) }
        return RelationshipDaySegments(
            segments: segments, starts: starts(segments), blockStarts: [0], blockMonths: [], blockSegments: [])
    }

    /// The month blocks: for each month, oldest first, each relationship's
    /// days in that month, relationships in `order`. A relationship's days
    /// are in date order, so a month's days are one run of its table.
    static func inMonths(order: [Int], tables: [[RelationshipDay]]) -> RelationshipDaySegments {
        var keyed: [(month: Int, rank: Int, segment: Segment)] = []
        keyed.reserveCapacity(order.count * 2)
        for (rank, relationship) in order.enumerated() {
            let days = tables[relationship]
            var start = 0
            while start < days.count {
                let month = monthIndex(days[start].date)
                let next = firstDay(ofMonth: month + 1)
                var end = start + 1
                while end < days.count, days[end].date < next { end += 1 }
                keyed.append((month, rank, Segment(relationship: relationship, days: start..<end)))
                start = end
            }
        }
        keyed.sort { ($0.month, $0.rank) < ($1.month, $1.rank) }
        let segments = keyed.map(\.segment)
        let starts = starts(segments)
        var blockStarts: [Int] = []
        var blockMonths: [Int] = []
        var firstSegments: [Int] = []
        for (position, entry) in keyed.enumerated() where blockMonths.last != entry.month {
            blockStarts.append(starts[position])
            blockMonths.append(entry.month)
            firstSegments.append(position)
        }
        let blockSegments = firstSegments.indices.map {
            firstSegments[$0]..<($0 + 1 < firstSegments.count ? firstSegments[$0 + 1] : segments.count)
        }
        if blockStarts.isEmpty { blockStarts = [0] }
        return RelationshipDaySegments(
            segments: segments, starts: starts, blockStarts: blockStarts, blockMonths: blockMonths,
            blockSegments: blockSegments)
    }

    /// `year * 12 + month - 1` of `date`: consecutive months are consecutive numbers.
    static func monthIndex(_ date: LocalDate) -> Int {
        let (year, month, _) = date.components
        return year * 12 + month - 1
    }

    /// The first day of month `index` (`monthIndex`).
    static func firstDay(ofMonth index: Int) -> LocalDate {
        let year = index >= 0 ? index / 12 : (index - 11) / 12
        return LocalDate(days: Int32(LocalDate.daysFromCivil(year, index - year * 12 + 1, 1)))
    }

    private static func starts(_ segments: [Segment]) -> [Int] {
        var starts = [0]
        starts.reserveCapacity(segments.count + 1)
        for segment in segments { starts.append(starts[starts.count - 1] + segment.days.count) }
        return starts
    }
}
