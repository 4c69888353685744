import Foundation
import Testing

@testable import DayfoldCore

/// The client side's facts are computed during ingest, from the inputs the
/// ingestor hands over before status events are read. They must be what the
/// compute stage gives from the whole drop (partitioned runs still take that
/// path), warnings included.
@Suite struct EarlyClientSideTests {
    static let drops: [(drop: String, pipeline: String?, asOf: String)] = [
        ("Conformance/drop", "Conformance/pipeline.json", "2026-03-29T09:30:00Z"),
        ("Cases/progress-health-day-in-latest-instance-zone/drop", nil, "2026-03-10T12:00:00Z"),
    ]

    @Test(arguments: drops.indices)
    func earlyClientSideEqualsTheOneComputedFromTheWholeDrop(index: Int) throws {
        let (dropPath, pipelinePath, asOfText) = Self.drops[index]
        let input = TestPaths.fixtures.appendingPathComponent(dropPath).path
        let config =
            try pipelinePath.map { try PipelineConfig.load(path: TestPaths.fixtures.appendingPathComponent($0).path) }
            ?? PipelineConfig()
        let asOf = try #require(parseAsOf(asOfText))
        // Ingest in a plan, as a whole run declares it: the client inputs
        // are handed over while ingest is still at work.
        let plan = StagePlan()
        let handedOver = plan.handover("client inputs", of: IngestedDrop.self)
        let ingested = plan.stage("ingest", handingOver: handedOver) {
            try PipelineRunner.ingest(input: input, config: config, asOf: asOf, hashInputs: false, clientInputs: $0)
        }
        let clientInputs = plan.stage("client inputs read", after: handedOver) { $0 }
        plan.run()
        let drop = try ingested.result().get()
        let inputs = try clientInputs.result().get()
        // Only the client side's inputs: no task rows.
        #expect(inputs.events.isEmpty && inputs.tasks.isEmpty)
        #expect(inputs.journal.count == drop.journal.count)

        // A second reading for the whole-drop path, with a resolver (and
        // record of fallbacks) of its own.
        let again = try PipelineRunner.ingest(input: input, config: config, asOf: asOf, hashInputs: false)
        let whole = FactsStage.compute(again, config: config, asOf: asOf)
        let early = FactsStage.facts(
            drop, outcomes: TaskOutcomeCalculator.outcomes(drop, asOf: asOf.instant),
            client: FactsStage.clientSide(inputs, config: config, asOf: asOf), config: config, asOf: asOf)
        #expect(early.drop.userZones !== whole.drop.userZones)
        #expect(!whole.clientTables.isEmpty)
        #expect(String(describing: early.clientTables) == String(describing: whole.clientTables))
        #expect(String(describing: early.progress) == String(describing: whole.progress))
        #expect(String(describing: early.signals) == String(describing: whole.signals))
        #expect(early.drop.userZones.warnings == whole.drop.userZones.warnings)
    }
}
