import Foundation
import Testing

@testable import DayfoldCore

/// A whole run empties the rows the facts were computed from (status events
/// and their ids, value entries, journal entries) before it writes, so the
/// writers reuse their memory. No output may read them: every table built
/// from the emptied result must be the one built from the full result.
@Suite struct ReleasedFactInputsTests {
    @Test func everyOutputTableIsTheSameWithoutTheRowsBehindTheFacts() throws {
        let input = TestPaths.fixtures.appendingPathComponent("Conformance/drop").path
        let config = try PipelineConfig.load(
            path: TestPaths.fixtures.appendingPathComponent("Conformance/pipeline.json").path)
        let asOf = try #require(parseAsOf("2026-03-29T09:30:00Z"))
        let drop = try PipelineRunner.ingest(input: input, config: config, asOf: asOf, hashInputs: false)
        let full = FactsStage.compute(drop, config: config, asOf: asOf)
        var released = full
        released.drop = full.drop.withoutFactInputs()
        #expect(!full.drop.events.isEmpty && !full.drop.valueEntries.isEmpty && !full.drop.journal.isEmpty)
        #expect(released.drop.events.isEmpty && released.drop.eventIDs.count == 0)
        #expect(released.drop.valueEntries.isEmpty && released.drop.journal.isEmpty)
        #expect(released.drop.tasks.count == full.drop.tasks.count)

        let tables: [(String, (RunResult) -> OutputTable)] = [
            ("relationship_days", { ReportTables.relationshipDays($0) }),
            ("client_days", { ReportTables.clientDays($0) }),
            ("progress_ranges", { ReportTables.progressRanges($0) }),
            ("risk_signals", { ReportTables.riskSignals($0) }),
            ("streaks", { ReportTables.streaks($0) }),
            ("adherence_events", { ReportTables.adherenceEvents($0) }),
        ]
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("released-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for (name, table) in tables {
            let fromFull = try TableWriters.writeCSV(
                table(full), to: folder.appendingPathComponent("\(name)-full.csv").path)
            let fromReleased = try TableWriters.writeCSV(
                table(released), to: folder.appendingPathComponent("\(name)-released.csv").path)
            #expect(fromFull.0 > 0, "\(name) has rows")
            #expect(fromFull.0 == fromReleased.0 && fromFull.1 == fromReleased.1, "\(name)")
        }
    }
}
