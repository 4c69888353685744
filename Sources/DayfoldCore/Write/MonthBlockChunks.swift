/// `relationship_days` written for an as-of series' step with the months it
/// shares with the step before taken as that step's encoded column chunks
/// (issue 21; Decisions.md, "Snapshots are laid out in month blocks").
///
/// Why it is the same file: a month block's rows are built from its
/// segments' days, the relationships' ids and details, the zones' names and
/// the as-of. When the first three are equal to the step before's, every
/// column but `as_of` is the same values, and a chunk's bytes are a function
/// of its values alone (`ParquetEncodedRowGroup`); `as_of` is encoded again.
/// What is compared is the facts a block is built from, never a clock: a
/// late row that changes an old month's day makes that month encoded again.
struct MonthBlockChunks: Sendable {
    /// One month's segments and the row groups they were written as.
    fileprivate struct Block: Sendable {
        var segments: [RelationshipDaySegments.Segment]
        var groups: [ParquetEncodedRowGroup]
    }

    fileprivate var days: [[RelationshipDay]]
    fileprivate var relationships: [Relationship]
    fileprivate var zoneNames: [String]
    fileprivate var blocks: [Int: Block]

    /// How many of the last write's months were taken from the step before (for tests).
    private(set) var reusedMonths = 0

    /// Writes `relationship_days` of `result` to `path` as
    /// `TableWriters.writeParquet` writes its snapshot, taking the months
    /// `previous` (the step before's) holds unchanged from it. Returns the
    /// rows, the SHA-256 and what the next step may take.
    static func write(
        _ result: RunResult, to path: String, previous: MonthBlockChunks?
    ) throws -> (rows: Int, sha256: String, chunks: MonthBlockChunks) {
        let order = ReportTables.relationshipOrder(result)
        let tables = result.relationshipDays
        let layout = RelationshipDaySegments.inMonths(order: order, tables: tables)
        let table = ReportTables.relationshipDays(result, layout)
        let zones = result.drop.zones
        var next = MonthBlockChunks(
            days: tables, relationships: result.drop.relationships,
            zoneNames: (0..<zones.namedCount).map { zones.name(of: ZoneID($0)) }, blocks: [:])
        // Only a step with the same relationships and zone names is compared further.
        let comparable = previous.flatMap {
            $0.relationships == next.relationships
                && $0.zoneNames.elementsEqual(next.zoneNames.prefix($0.zoneNames.count))
                ? $0 : nil
        }
        let writer = try ParquetFileWriter(path: path, fields: table.fields)
        guard let asOfColumn = table.fields.indices.last, table.fields[asOfColumn].name == "as_of" else {
            throw ParquetError(.invalidArgument, path: path, operation: "write", detail: "as_of is not the last column")
        }
        let ranges = table.rowGroupRanges(rowGroupRows: TableWriters.rowGroupRows)
        var nextRange = 0
        for (index, month) in layout.blockMonths.enumerated() {
            let blockSegments = layout.blockSegments[index]
            let endRow = layout.starts[blockSegments.upperBound]
            let segments = Array(layout.segments[blockSegments])
            var groups: [ParquetEncodedRowGroup] = []
            if let before = comparable?.blocks[month], let previousDays = comparable?.days,
                Self.sameDays(before.segments, previousDays, segments, tables)
            {
                for var group in before.groups {
                    group.chunks[asOfColumn] = try writer.encodeChunk(
                        ReportTables.asOfData(result, rows: group.rowCount), field: asOfColumn)
                    groups.append(group)
                }
                next.reusedMonths += 1
                while nextRange < ranges.count, ranges[nextRange].lowerBound < endRow { nextRange += 1 }
            } else {
                while nextRange < ranges.count, ranges[nextRange].lowerBound < endRow {
                    if let group = try writer.encodeRowGroup(table.rowGroup(ranges[nextRange])) { groups.append(group) }
                    nextRange += 1
                }
            }
            for group in groups { try writer.writeRowGroup(encoded: group) }
            next.blocks[month] = Block(segments: segments, groups: groups)
        }
        if table.rowCount == 0 { try writer.writeRowGroup(table.rowGroup(0..<0)) }
        try writer.close()
        return (table.rowCount, writer.sha256 ?? "", next)
    }

    /// Whether two months' segments are the same relationships' equal days.
    private static func sameDays(
        _ before: [RelationshipDaySegments.Segment], _ beforeDays: [[RelationshipDay]],
        _ now: [RelationshipDaySegments.Segment], _ nowDays: [[RelationshipDay]]
    ) -> Bool {
        guard before.count == now.count else { return false }
        for (old, new) in zip(before, now) {
            guard old.relationship == new.relationship, old.days.count == new.days.count,
                beforeDays[old.relationship][old.days] == nowDays[new.relationship][new.days]
            else { return false }
        }
        return true
    }
}
