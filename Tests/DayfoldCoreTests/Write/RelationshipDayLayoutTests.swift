import Foundation
import Testing

@testable import DayfoldCore

/// `relationship_days`' snapshot is laid out in month blocks (Decisions.md,
/// "Snapshots are laid out in month blocks") while its report keeps the
/// keys' order (SPEC §7): the segments, the row groups a whole run cuts, and
/// what a whole and a partitioned run publish.
@Suite struct RelationshipDayLayoutTests {
    /// Days `from`…`to` of relationship `relationship`, dense, as the day builder makes them.
    static func days(_ relationship: Int, from: LocalDate, to: LocalDate) -> [RelationshipDay] {
        (from.days...to.days).map {
            RelationshipDay(relationship: relationship, date: LocalDate(days: $0), zone: ZoneCatalog.utc)
        }
    }

    static func date(_ year: Int, _ month: Int, _ day: Int) -> LocalDate {
        LocalDate(year: year, month: month, day: day) ?? LocalDate(days: 0)
    }

    /// Worked by hand: relationship 0 (second in id order) has 2025-12-30 …
    /// 2026-01-02 (2 + 2 days), relationship 1 (first in id order) has
    /// 2026-01-31 … 2026-02-01 (1 + 1), relationship 2 has no days. Months
    /// come oldest first across the year's end; inside a month, id order.
    @Test func monthBlocksTakeEachMonthsDaysInIdOrderOldestMonthFirst() {
        let tables = [
            Self.days(0, from: Self.date(2025, 12, 30), to: Self.date(2026, 1, 2)),
            Self.days(1, from: Self.date(2026, 1, 31), to: Self.date(2026, 2, 1)),
            [],
        ]
        let layout = RelationshipDaySegments.inMonths(order: [1, 0, 2], tables: tables)
        typealias Segment = RelationshipDaySegments.Segment
        #expect(
            layout.segments == [
                Segment(relationship: 0, days: 0..<2),  // December 2025
                Segment(relationship: 1, days: 0..<1), Segment(relationship: 0, days: 2..<4),  // January 2026
                Segment(relationship: 1, days: 1..<2),  // February 2026
            ])
        #expect(layout.starts == [0, 2, 3, 5, 6])
        #expect(layout.blockStarts == [0, 2, 5])
        #expect(layout.blockMonths == [2025 * 12 + 11, 2026 * 12, 2026 * 12 + 1])
        let byKey = RelationshipDaySegments.byRelationship(order: [1, 0, 2], tables: tables)
        #expect(
            byKey.segments == [
                Segment(relationship: 1, days: 0..<2), Segment(relationship: 0, days: 0..<4),
                Segment(relationship: 2, days: 0..<0),
            ])
        #expect(byKey.blockStarts == [0])
    }

    @Test func monthsAreConsecutiveNumbersAndTheirFirstDaysRoundTrip() {
        #expect(RelationshipDaySegments.monthIndex(Self.date(2026, 1, 1)) == 2026 * 12)
        #expect(RelationshipDaySegments.monthIndex(Self.date(2025, 12, 31)) == 2026 * 12 - 1)
        #expect(RelationshipDaySegments.monthIndex(Self.date(1969, 12, 31)) == 1969 * 12 + 11)
        for month in [1969 * 12 + 11, 1970 * 12, 2024 * 12 + 1, 2026 * 12 + 2] {
            let first = RelationshipDaySegments.firstDay(ofMonth: month)
            #expect(first.components.day == 1)
            #expect(RelationshipDaySegments.monthIndex(first) == month)
            #expect(RelationshipDaySegments.monthIndex(first.adding(days: -1)) == month - 1)
        }
    }

    /// A row group never spans two blocks; a block longer than the row
    /// group size is cut from its own first row.
    @Test func rowGroupsAreCutInsideEachBlock() {
        var table = OutputTable(
            name: "t", rowCount: 12, fields: [ParquetField(name: "x", type: .int64, nullable: false)]
        ) {
            [.int64($0.map { Int64($0) })]
        }
        #expect(table.rowGroupRanges(rowGroupRows: 5) == [0..<5, 5..<10, 10..<12])
        table.blockStarts = [0, 3, 11]
        #expect(table.rowGroupRanges(rowGroupRows: 5) == [0..<3, 3..<8, 8..<11, 11..<12])
    }

    /// SampleData spans January to April: the snapshot holds the report's
    /// rows, month by month, each month in the report's order, and each row
    /// group inside one month; a partitioned run (the merge spills months)
    /// publishes the same bytes and leaves no spill behind.
    @Test func theSnapshotIsTheReportInMonthBlocksWholeAndPartitioned() throws {
        let root = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        var published: [Data] = []
        for (name, output) in try MonthBlockLayoutTests.sampleRunsWholeAndPartitioned(in: root) {
            let snapshot = output.appendingPathComponent("snapshots/relationship_days.parquet").path
            published.append(try Data(contentsOf: URL(fileURLWithPath: snapshot)))
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: output.appendingPathComponent("snapshots").path)
                    .allSatisfy { $0.hasSuffix(".parquet") }, "\(name)")
            let info = try ParquetFileInfo.read(path: snapshot)
            let columns = try info.readColumns(path: snapshot, limit: Int.max)
            guard case .string(let ids) = columns[0], case .int32(let dates) = columns[2] else {
                Issue.record("relationship_id and local_date are not STRING and DATE")
                return
            }
            let rows = zip(ids, dates).map { ($0 ?? "", LocalDate(days: $1 ?? 0)) }
            let report = try ReportComparison.readCSV(output.appendingPathComponent("reports/coach_daily_summary.csv"))
            let id = try #require(report.header.firstIndex(of: "relationship_id"))
            let day = try #require(report.header.firstIndex(of: "local_date"))
            let reportRows = report.rows.map { ($0[id] ?? "", LocalDate($0[day] ?? "") ?? LocalDate(days: 0)) }
            #expect(rows.count == reportRows.count)
            let month = { (date: LocalDate) in RelationshipDaySegments.monthIndex(date) }
            let want = reportRows.enumerated().sorted {
                (month($0.element.1), $0.offset) < (month($1.element.1), $1.offset)
            }.map(\.element)
            #expect(rows.map(\.0) == want.map(\.0), "\(name): relationship order")
            #expect(rows.map(\.1) == want.map(\.1), "\(name): date order")
            #expect(Set(rows.map { month($0.1) }).count >= 3, "SampleData spans three months or more")
            MonthBlockLayoutTests.expectEachRowGroupInOneMonth(info, months: rows.map { month($0.1) }, name)
        }
        #expect(published.count == 2 && published[0] == published[1])
    }
}
