import Foundation
import Testing

@testable import DayfoldCore

/// The catalog is the one list of published tables: a whole run and a
/// partitioned run of a drop with push/ publish exactly its snapshots and
/// reports, and a drop without push/ exactly its tables that need none.
@Suite struct OutputCatalogTests {
    static func published(_ folder: URL, _ subfolder: String) throws -> Set<String> {
        Set(try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent(subfolder).path))
    }

    @Test func wholeAndPartitionedRunsPublishTheCatalogsTables() throws {
        let root = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let sample = TestPaths.repositoryRoot.appendingPathComponent("SampleData/demo")
        let tables = OutputCatalog.tables(push: true)
        for (name, extra) in [("whole", [String]()), ("partitioned", ["--max-memory", "2M"])] {
            let output = root.appendingPathComponent(name)
            let run = try DayfoldProcess.run(
                ["run", "--input", sample.path, "--output", output.path, "--as-of", "2026-03-31T18:00:00Z"] + extra)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(try Self.published(output, "snapshots") == Set(tables.map { "\($0.name).parquet" }), "\(name)")
            #expect(
                try Self.published(output, "reports")
                    == Set(tables.compactMap { $0.report.map { ($0 as NSString).lastPathComponent } }), "\(name)")
        }
        #expect(
            OutputCatalog.history.map(\.name) == ["relationship_days", "progress_ranges", "risk_signals", "streaks"])
        #expect(OutputCatalog.tables(push: false).allSatisfy { !$0.needsPush })
        #expect(OutputCatalog.tables(push: false).count == 6)
    }
}
