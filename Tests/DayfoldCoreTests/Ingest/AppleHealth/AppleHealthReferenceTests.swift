import Foundation
import Testing

@testable import DayfoldCore

/// A real 2017 export (steps from iPhone and Watch, food entries repeated
/// inside Correlations) gives the daily figures of an independent reference
/// (Tests/interop/apple_health_reference.py: top-level Records only, steps
/// the maximum of per-source sums, body mass the day's latest sample).
@Suite struct AppleHealthReferenceTests {
    static let fixture = TestPaths.shared.appendingPathComponent("fixtures/apple-health/ashtom-hkimport-export.xml")

    // day: energy_kcal, protein_g, carbs_g, fat_g, steps, body_mass_kg
    static let reference: [String: [Double]] = [
        "2017-04-05": [981.0, 7.3, 118.8, 77.2, 6375, 52.0003],
        "2017-04-27": [80.0, 0.0, 22.0, 0.0, 230, 59.9998],
        "2017-05-14": [80.0, 0.0, 22.0, 0.0, 242, 50.1002],
        "2017-07-17": [5135.0, 206.0, 691.0, 175.0, 909, 49.9999],
        "2017-10-31": [403.0, 12.5, 59.0, 13.5, 612, 70.0347],
    ]

    @Test(.enabled(if: FileManager.default.fileExists(atPath: fixture.path)))
    func dailyFiguresMatchTheReferenceWithCorrelationCopiesCountedOnce() throws {
        let root = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let folder = root.appendingPathComponent("drop/health/ashtom")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Self.fixture, to: folder.appendingPathComponent("export.xml"))
        let out = root.appendingPathComponent("out")
        let result = try DayfoldProcess.run([
            "run", "--input", root.appendingPathComponent("drop").path, "--output", out.path, "--as-of",
            "2017-12-31T00:00:00Z", "--debug-tables",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let table = try ReportComparison.readCSV(out.appendingPathComponent("debug/client_days.csv"))
        let names = [
            "health_energy_kcal", "health_protein_g", "health_carbs_g", "health_fat_g", "steps", "body_mass_kg",
        ]
        let columns = try names.map { name in try #require(table.header.firstIndex(of: name)) }
        let dateColumn = try #require(table.header.firstIndex(of: "local_date"))
        for (day, expected) in Self.reference {
            let row = try #require(table.rows.first { $0[dateColumn] == day }, "no client day \(day)")
            for (position, column) in columns.enumerated() {
                let value = try #require(row[column].flatMap(Double.init), "\(day) \(names[position]) is NULL")
                #expect(
                    abs(value - expected[position]) < 1e-9 * max(1, abs(expected[position])),
                    "\(day) \(names[position]): \(value) vs \(expected[position])")
            }
        }
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: fixture.path)))
    func everyTopLevelElementIsCountedOnce() throws {
        let root = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let folder = root.appendingPathComponent("health/ashtom")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Self.fixture, to: folder.appendingPathComponent("export.xml"))
        let result = try DayfoldProcess.run(["validate", root.path, "--as-of", "2017-12-31T00:00:00Z", "--json"])
        #expect(result.status == 0)
        // 10,939 top-level Records + ExportDate, Me, 34 Correlations, 61 Workouts (the 162 nested Records are not rows).
        #expect(result.stdout.contains(#""path":"health/ashtom/export.xml","rows_read":11036,"#))
    }
}
