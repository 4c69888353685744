import Foundation
import Testing

@testable import DayfoldCore

/// The committed sample drop: every row accounted for, the designed bad
/// rows (SampleData/README.md) rejected at their lines, and Progress never
/// showing a 0 for a day without data.
@Suite struct SampleDataTests {
    static let pipeline = TestPaths.repositoryRoot.appendingPathComponent("Pipelines/sample.json").path
    static let input = TestPaths.repositoryRoot.appendingPathComponent("SampleData/demo").path
    static let asOf = "2026-03-31T18:00:00Z"

    @Test func validateAccountsForEveryRowAndRejectsTheDesignedRows() throws {
        let result = try DayfoldProcess.run([
            "validate", Self.input, "--as-of", Self.asOf, "--json", "--pipeline", Self.pipeline,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let files = try #require(object["files"] as? [[String: Any]])
        #expect(files.count >= 15)
        for file in files {
            let count = { (key: String) in (file[key] as? NSNumber)?.intValue ?? -1 }
            #expect(
                count("rows_read") == count("accepted") + count("duplicate") + count("ignored") + count("rejected"),
                "\(file["path"] ?? "?") does not balance")
        }
        let rejects = try #require(object["rejects"] as? [[String: Any]])
        let got = Set(rejects.map { "\($0["file"] ?? ""),\($0["line"] ?? ""),\($0["reason"] ?? "")" })
        let designed = try ReportComparison.readCSV(
            TestPaths.fixtures.appendingPathComponent("SampleData/designed_rejects.csv"))
        let want = Set(designed.rows.map { $0.map { $0 ?? "" }.joined(separator: ",") })
        #expect(
            got == want, "missing: \(want.subtracting(got).sorted()); unexpected: \(got.subtracting(want).sorted())")
    }

    @Test func progressCountsOnlyDaysWithDataAndNeverInventsZero() throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("out")
        let result = try DayfoldProcess.run([
            "run", Self.pipeline, "--input", Self.input, "--output", out.path, "--as-of", Self.asOf, "--debug-tables",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let days = try ReportComparison.readCSV(out.appendingPathComponent("debug/client_days.csv"))
        let progress = try ReportComparison.readCSV(out.appendingPathComponent("reports/progress_ranges.csv"))
        func column(_ header: [String], _ name: String) throws -> Int { try #require(header.firstIndex(of: name)) }
        // (user, date) → row of the client day table.
        var byDay: [String: [String?]] = [:]
        let userColumn = try column(days.header, "user_id")
        let dateColumn = try column(days.header, "local_date")
        for row in days.rows { byDay["\(row[userColumn] ?? "")|\(row[dateColumn] ?? "")"] = row }
        let sourceColumns: [String: [String: String]] = [
            "LOCAL_JOURNAL": [
                "energy_kcal": "journal_energy_kcal", "protein_g": "journal_protein_g", "carbs_g": "journal_carbs_g",
                "fat_g": "journal_fat_g",
            ],
            "APPLE_HEALTH": [
                "energy_kcal": "health_energy_kcal", "protein_g": "health_protein_g", "carbs_g": "health_carbs_g",
                "fat_g": "health_fat_g", "water_ml": "water_ml", "steps": "steps", "body_mass_kg": "body_mass_kg",
            ],
        ]
        let p = progress.header
        var checked = 0
        for row in progress.rows {
            let user = row[try column(p, "user_id")] ?? ""
            let metric = row[try column(p, "metric")] ?? ""
            let source = row[try column(p, "source")] ?? ""
            let daysWithData = Int(row[try column(p, "days_with_data")] ?? "") ?? -1
            let statistics = ["total", "average", "min", "max"].map { row[(try? column(p, $0)) ?? 0] }
            guard let dayColumnName = sourceColumns[source]?[metric] else {
                #expect(source == "NONE" && daysWithData == 0, "\(user) \(metric): source \(source)")
                #expect(
                    statistics.allSatisfy { $0 == nil }, "\(user) \(metric): no data must be NULL, not \(statistics)")
                continue
            }
            let dayColumn = try column(days.header, dayColumnName)
            var values: [Double] = []
            var date = try #require(LocalDate(row[try column(p, "window_from")] ?? ""))
            let last = try #require(LocalDate(row[try column(p, "window_to")] ?? ""))
            while date <= last {
                if let text = byDay["\(user)|\(date)"]?[dayColumn], let value = Double(text) { values.append(value) }
                date = date.adding(days: 1)
            }
            #expect(daysWithData == values.count, "\(user) \(metric) \(row[2] ?? ""): days_with_data")
            #expect(daysWithData > 0)
            let average = Double(row[try column(p, "average")] ?? "")
            let expected = values.reduce(0, +) / Double(values.count)
            #expect(
                average.map { abs($0 - expected) <= 1e-9 * max(1, abs(expected)) } == true, "\(user) \(metric): average"
            )
            if let minimum = Double(row[try column(p, "min")] ?? "") {
                #expect(minimum == values.min(), "\(user) \(metric): min \(minimum) vs days \(values)")
            }
            checked += 1
        }
        #expect(checked > 50, "the sample should exercise Progress with data (checked \(checked))")
    }
}
