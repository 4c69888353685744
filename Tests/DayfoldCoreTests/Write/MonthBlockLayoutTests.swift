import Foundation
import Testing

@testable import DayfoldCore

/// `adherence_events` and `push_deliveries` are laid out in month blocks
/// (Decisions.md, "Snapshots are laid out in month blocks"): events by the
/// month of `local_date`, in the keys' order inside each month; deliveries,
/// by day already, cut into row groups at each month. The regrouping, and
/// what a whole and a partitioned run publish.
@Suite struct MonthBlockLayoutTests {
    /// SampleData run whole and partitioned (a 1 KB budget), with debug
    /// tables, into `root`: each run's name and output.
    static func sampleRunsWholeAndPartitioned(in root: URL) throws -> [(name: String, output: URL)] {
        let sample = TestPaths.repositoryRoot.appendingPathComponent("SampleData/demo")
        return try [("whole", [String]()), ("partitioned", ["--max-memory", "1K"])].map { name, extra in
            let output = root.appendingPathComponent(name)
            let run = try DayfoldProcess.run(
                [
                    "run", "--input", sample.path, "--output", output.path, "--as-of", "2026-03-31T18:00:00Z",
                    "--debug-tables",
                ] + extra)
            #expect(run.status == 0, "\(run.stderr)")
            return (name, output)
        }
    }

    /// Worked by hand: rows 10…15 in key order with months
    /// 5, 3, 5, 4, 3, 5: month 3 takes rows 11 and 14, month 4 row 13,
    /// month 5 rows 10, 12 and 15, each in the order they came.
    @Test func monthBlocksKeepTheKeyOrderInsideEachMonthOldestFirst() {
        let month = [10: 5, 11: 3, 12: 5, 13: 4, 14: 3, 15: 5]
        let order = MonthBlockOrder([10, 11, 12, 13, 14, 15]) { month[$0] ?? 0 }
        #expect(order.rows == [11, 14, 13, 10, 12, 15])
        #expect(order.blockStarts == [0, 2, 3])
        #expect(order.months == [3, 4, 5])
        let gap = MonthBlockOrder([1, 2]) { $0 == 1 ? 24_000 : 24_012 }
        #expect(gap.rows == [1, 2] && gap.blockStarts == [0, 1] && gap.months == [24_000, 24_012])
        let empty = MonthBlockOrder([]) { $0 }
        #expect(empty.rows.isEmpty && empty.blockStarts == [0] && empty.months.isEmpty)
    }

    /// SampleData spans January to April: the snapshot holds the debug
    /// table's rows (the keys' order) month by month, each row group inside
    /// one month, and a partitioned run (whose merge spills months)
    /// publishes the same bytes.
    @Test func theSnapshotIsTheKeyOrderInMonthBlocksWholeAndPartitioned() throws {
        let root = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        var published: [Data] = []
        for (name, output) in try Self.sampleRunsWholeAndPartitioned(in: root) {
            let snapshot = output.appendingPathComponent("snapshots/adherence_events.parquet").path
            published.append(try Data(contentsOf: URL(fileURLWithPath: snapshot)))
            let info = try ParquetFileInfo.read(path: snapshot)
            let columns = try info.readColumns(path: snapshot, limit: Int.max)
            guard case .string(let ids) = columns[0], case .int32(let dates) = columns[4] else {
                Issue.record("event_id and local_date are not STRING and DATE")
                return
            }
            let rows = zip(ids, dates).map { ($0 ?? "", LocalDate(days: $1 ?? 0)) }
            let keyed = try ReportComparison.readCSV(output.appendingPathComponent("debug/adherence_events.csv"))
            let id = try #require(keyed.header.firstIndex(of: "event_id"))
            let day = try #require(keyed.header.firstIndex(of: "local_date"))
            let keyedRows = keyed.rows.map { ($0[id] ?? "", LocalDate($0[day] ?? "") ?? LocalDate(days: 0)) }
            #expect(rows.count == keyedRows.count && rows.count > 100)
            let month = { (date: LocalDate) in RelationshipDaySegments.monthIndex(date) }
            let want = keyedRows.enumerated().sorted {
                (month($0.element.1), $0.offset) < (month($1.element.1), $1.offset)
            }.map(\.element)
            // The first row out of place, not the whole columns: they are long.
            let misplaced = rows.indices.first { rows[$0].0 != want[$0].0 || rows[$0].1 != want[$0].1 }
            #expect(misplaced == nil, "\(name): row \(misplaced ?? -1) is not the keys' order in month blocks")
            #expect(Set(rows.map { month($0.1) }).count >= 3, "SampleData spans three months or more")
            Self.expectEachRowGroupInOneMonth(info, months: rows.map { month($0.1) }, name)
        }
        #expect(published.count == 2 && published[0] == published[1])
    }

    /// Each row group of `info` holds rows of one month (`months`: each row's, in file order).
    static func expectEachRowGroupInOneMonth(_ info: ParquetFileInfo, months: [Int], _ name: String) {
        var first = 0
        for group in info.rowGroups {
            let spanned = Set(months[first..<(first + Int(group.rows))])
            #expect(spanned.count == 1, "\(name): a row group spans months \(spanned)")
            first += Int(group.rows)
        }
    }

    /// `push_deliveries` is by day already: its snapshot is cut into row
    /// groups at each month, whole and partitioned alike.
    @Test func pushDeliveriesAreCutAtMonthsWholeAndPartitioned() throws {
        let root = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        var published: [Data] = []
        for (name, output) in try Self.sampleRunsWholeAndPartitioned(in: root) {
            let snapshot = output.appendingPathComponent("snapshots/push_deliveries.parquet").path
            published.append(try Data(contentsOf: URL(fileURLWithPath: snapshot)))
            let info = try ParquetFileInfo.read(path: snapshot)
            let columns = try info.readColumns(path: snapshot, limit: Int.max)
            let day = try #require(info.fields.firstIndex { $0.name == "day" })
            guard case .int32(let days) = columns[day] else {
                Issue.record("day is not a DATE")
                return
            }
            let months = days.map { RelationshipDaySegments.monthIndex(LocalDate(days: $0 ?? 0)) }
            #expect(months == months.sorted(), "\(name): rows are by day")
            #expect(Set(months).count >= 3 && info.rowGroups.count == Set(months).count, "\(name): a group per month")
            Self.expectEachRowGroupInOneMonth(info, months: months, name)
        }
        #expect(published.count == 2 && published[0] == published[1])
    }
}
