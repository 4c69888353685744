import Foundation
import Testing

@testable import DayfoldCore

/// An as-of series step writes `relationship_days` taking the months it
/// shares with the step before from that step's encoded chunks: the file is
/// always the bytes a fresh write gives, and a month is taken only when its
/// days, the relationships and the zones are unchanged (the as-of alone
/// changing still takes every month).
@Suite struct MonthBlockChunksTests {
    static func result() throws -> RunResult {
        let input = TestPaths.repositoryRoot.appendingPathComponent("SampleData/demo").path
        let config = try PipelineConfig.load(
            path: TestPaths.repositoryRoot.appendingPathComponent("Pipelines/sample.json").path)
        let asOf = try #require(parseAsOf("2026-03-31T18:00:00Z"))
        let drop = try PipelineRunner.ingest(input: input, config: config, asOf: asOf, hashInputs: false)
        return FactsStage.compute(drop, config: config, asOf: asOf)
    }

    /// Writes `result` reusing `previous`; expects the bytes of a fresh
    /// snapshot write and `reused` months taken. Returns the chunks.
    static func write(
        _ result: RunResult, previous: MonthBlockChunks?, reused: Int, in folder: URL, _ label: String
    ) throws -> MonthBlockChunks {
        let fresh = folder.appendingPathComponent("\(label)-fresh.parquet").path
        let reusing = folder.appendingPathComponent("\(label)-reusing.parquet").path
        let want = try TableWriters.writeParquet(ReportTables.relationshipDays(result), to: fresh)
        let got = try MonthBlockChunks.write(result, to: reusing, previous: previous)
        #expect(got.rows == want.rows && got.sha256 == want.sha256, "\(label): not the fresh write's bytes")
        #expect(
            FileManager.default.contents(atPath: fresh) == FileManager.default.contents(atPath: reusing), "\(label)")
        #expect(got.chunks.reusedMonths == reused, "\(label): months taken")
        return got.chunks
    }

    @Test func unchangedMonthsAreTakenAndChangedOnesEncodedAgain() throws {
        let folder = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let base = try Self.result()
        let months = RelationshipDaySegments.inMonths(
            order: ReportTables.relationshipOrder(base), tables: base.relationshipDays
        ).blockMonths
        #expect(months.count >= 3, "SampleData spans three months or more")
        let first = try Self.write(base, previous: nil, reused: 0, in: folder, "first")
        _ = try Self.write(base, previous: first, reused: months.count, in: folder, "same")

        // The as-of alone moves: every month taken, as_of encoded again.
        var later = base
        later.asOf = try #require(parseAsOf("2026-04-01T18:00:00Z"))
        _ = try Self.write(later, previous: first, reused: months.count, in: folder, "as-of")

        // A late completion on the first day of the oldest month: that month alone again.
        var late = base
        let relationship = try #require(late.relationshipDays.firstIndex { !$0.isEmpty })
        late.relationshipDays[relationship][0].completed += 1
        let lateChunks = try Self.write(late, previous: first, reused: months.count - 1, in: folder, "late")
        // … and taken from there at the next step.
        _ = try Self.write(late, previous: lateChunks, reused: months.count, in: folder, "after-late")

        // A new day at the end of a relationship: its month is encoded again.
        var grown = base
        var day = try #require(grown.relationshipDays[relationship].last)
        day.date = day.date.adding(days: 1)
        grown.relationshipDays[relationship].append(day)
        #expect(months.contains(RelationshipDaySegments.monthIndex(day.date)), "the day's month has other rows")
        _ = try Self.write(grown, previous: first, reused: months.count - 1, in: folder, "grown")

        // A relationship's details changed: nothing is taken.
        var edited = base
        edited.drop.relationships[relationship].status = "PAUSED"
        _ = try Self.write(edited, previous: first, reused: 0, in: folder, "edited")
    }
}
