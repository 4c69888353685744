import Foundation
import Testing

@testable import DayfoldCore

/// Health CSV rows wait in runs of 256 before their exact-duplicate check
/// (`readHealthCSV`): duplicates across a run's edge and across files must
/// count as they do row by row, the first in file order kept.
@Suite struct HealthDuplicateRunsTests {
    static let header = "user_id,type,value,unit,start,end,source_name,source_bundle_id,device\n"

    /// Sample `n` of a user: a step count at minute `n` of 2025-04-01 (UTC).
    static func row(_ n: Int) -> String {
        let start = String(format: "2025-04-01T%02d:%02d:00Z", n / 60, n % 60)
        return "u-1,HKQuantityTypeIdentifierStepCount,\(n + 1),count,\(start),\(start),Phone,com.example.phone,\n"
    }

    @Test func duplicatesAcrossRunEdgesAndFilesCountOnce() throws {
        let root = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let health = root.appendingPathComponent("health")
        try FileManager.default.createDirectory(at: health, withIntermediateDirectories: true)
        // a.csv: samples 0–299, then the same 300 again (their copies fall in
        // later runs, some in the run after their original's edge).
        let first = (0..<600).map { Self.row($0 % 300) }.joined()
        try (Self.header + first).write(to: health.appendingPathComponent("a.csv"), atomically: true, encoding: .utf8)
        // b.csv: samples 0–99 again (duplicates of the other file), then 300–349 (new).
        let second = ((0..<100).map(Self.row) + (300..<350).map(Self.row)).joined()
        try (Self.header + second).write(to: health.appendingPathComponent("b.csv"), atomically: true, encoding: .utf8)

        let asOf = try #require(parseAsOf("2025-05-01T00:00:00Z"))
        let drop = try PipelineRunner.ingest(input: root.path, config: PipelineConfig(), asOf: asOf, hashInputs: false)
        let accounts = Dictionary(uniqueKeysWithValues: drop.accounts.map { ($0.path, $0) })
        let a = try #require(accounts["health/a.csv"])
        let b = try #require(accounts["health/b.csv"])
        #expect((a.rowsRead, a.accepted, a.duplicate, a.rejected) == (600, 300, 300, 0))
        #expect((b.rowsRead, b.accepted, b.duplicate, b.rejected) == (150, 50, 100, 0))
        // Each accepted sample reached the day table once: 350 samples, steps 1…350.
        let day = try #require(drop.healthDays["u-1"]?.values.first)
        #expect(drop.healthDays["u-1"]?.count == 1)
        #expect(day.records == 350)
        #expect(day.value(.steps) == Double((1...350).reduce(0, +)))
    }
}
