import DayfoldGenerate
import Foundation
import Testing

@testable import DayfoldCore

/// The synthetic drop generator: deterministic, in the SPEC §1 layout, split
/// and compressed as asked, and quick at small sizes.
@Suite struct DropGeneratorTests {
    /// A fresh (not yet created) folder under the system temporary directory.
    func scratchFolder(_ name: String = #function) -> String {
        let base = FileManager.default.temporaryDirectory.path
        return base + "/dayfold-generate-\(getpid())-\(name.filter { $0.isLetter })-\(UUID().uuidString.prefix(8))"
    }

    func options(_ output: String, clients: Int = 12, days: Int = 21, seed: UInt64 = 7) -> DropGeneratorOptions {
        DropGeneratorOptions(clients: clients, days: days, seed: seed, output: output)
    }

    func contents(_ root: String, _ relativePath: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: root + "/" + relativePath))
    }

    func decompressed(_ path: String) throws -> Data {
        let stream = try openByteStream(path: path)
        var bytes: [UInt8] = []
        while let chunk = try stream.nextChunk() { bytes += chunk }
        return Data(bytes)
    }

    func lines(_ data: Data) -> [Substring] {
        String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).dropLast()
    }

    @Test func sameSeedAndOptionsGiveByteIdenticalFiles() throws {
        let first = scratchFolder()
        let second = scratchFolder()
        defer {
            try? FileManager.default.removeItem(atPath: first)
            try? FileManager.default.removeItem(atPath: second)
        }
        let a = try DropGenerator.generate(options(first))
        let b = try DropGenerator.generate(options(second))
        #expect(a.files.map(\.path) == b.files.map(\.path))
        #expect(a.totalRows == b.totalRows && a.totalBytes == b.totalBytes)
        for file in a.files {
            #expect(try contents(first, file.path) == contents(second, file.path), "\(file.path) differs between runs")
        }
    }

    @Test func anotherSeedGivesAnotherDrop() throws {
        let first = scratchFolder()
        let second = scratchFolder()
        defer {
            try? FileManager.default.removeItem(atPath: first)
            try? FileManager.default.removeItem(atPath: second)
        }
        _ = try DropGenerator.generate(options(first, seed: 1))
        _ = try DropGenerator.generate(options(second, seed: 2))
        let path = "tasks/instances/instances-000.csv"
        #expect(try contents(first, path) != contents(second, path))
    }

    @Test func writesTheSpecLayoutWithHeaders() throws {
        let root = scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let summary = try DropGenerator.generate(options(root, clients: 20, days: 40))
        let paths = Set(summary.files.map(\.path))
        let expectedHeaders: [String: [String]] = [
            "subjects/relationships.csv": ["relationship_id", "client_user_id", "status", "started_on", "ended_on"],
            "subjects/timezones.csv": ["user_id", "timezone", "effective_from"],
            "subjects/goals.csv": ["user_id", "metric", "target", "provenance", "effective_on"],
            "subjects/preferences.csv": ["user_id", "progress_source"],
            "tasks/instances/instances-000.csv": [
                "id", "relationship_id", "local_date", "timezone", "task_kind", "source_key", "status", "action_schema",
            ],
            "tasks/instances/instances-001-reexport.csv": [
                "id", "relationship_id", "local_date", "source_key", "status",
            ],
            "tasks/status_events/events-000.csv": [
                "id", "daily_task_instance_id", "relationship_id", "to_status", "occurred_at", "device_id",
                "client_operation_id",
            ],
            "tasks/status_events/events-001-reexport.csv": [
                "id", "daily_task_instance_id", "to_status", "occurred_at",
            ],
            "tasks/value_entries/values-000.csv": [
                "id", "daily_task_instance_id", "relationship_id", "value", "recorded_at", "status",
            ],
            "tasks/info_cards/cards-000.csv": ["id", "relationship_id", "local_date", "card_key"],
            "tasks/workout_logs/workout_logs-000.csv": [
                "id", "relationship_id", "assignment_id", "program_day_id", "local_date", "status",
            ],
            "journal/journal-000.csv": ["entry_id", "user_id", "cooked_at", "revision", "portion", "deleted"],
            "health/health-000.csv": [
                "user_id", "type", "value", "unit", "start", "end", "source_name", "source_bundle_id",
            ],
        ]
        for (path, columns) in expectedHeaders {
            #expect(paths.contains(path), "missing \(path)")
            guard paths.contains(path) else { continue }
            let header = try #require(lines(contents(root, path)).first).split(separator: ",").map(String.init)
            for column in columns { #expect(header.contains(column), "\(path) lacks \(column)") }
        }
        // The summary matches the disk: rows exclude the header, sizes are exact.
        for file in summary.files {
            let data = try contents(root, file.path)
            #expect(Int64(data.count) == file.bytes, "\(file.path) size")
            #expect(lines(data).count == file.rows + 1, "\(file.path) rows")
        }
        #expect(summary.csvBytes == summary.totalBytes)
        #expect(summary.lastDate == "2026-03-31" && summary.firstDate == "2026-02-20")
    }

    @Test func draftsTheShapesRealExportsHave() throws {
        let root = scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let summary = try DropGenerator.generate(options(root, clients: 40, days: 60))
        func all(_ folder: String) throws -> String {
            try summary.files.filter { $0.path.hasPrefix(folder) }
                .map { String(decoding: try contents(root, $0.path), as: UTF8.self) }.joined()
        }
        let instances = try all("tasks/instances/")
        for kind in ["WORKOUT", "MEAL", "CHECK_IN", "HABIT", "REMINDER"] { #expect(instances.contains(",\(kind),")) }
        #expect(instances.contains(#"{""value_capture"":{""mode"":""ACCUMULATE"",""target"":8,""unit"":""glass""}}"#))
        #expect(instances.contains(#"{""informational"":true}"#))
        let events = try all("tasks/status_events/")
        for status in ["IN_PROGRESS", "COMPLETED", "SKIPPED", "MISSED", "CANCELED"] {
            #expect(events.contains(",\(status),"))
        }
        #expect(events.contains(",NO_TIME,"))
        let zones = try all("subjects/timezones")
        for zone in ["Europe/Berlin", "America/Los_Angeles", "Asia/Kolkata"] { #expect(zones.contains(zone)) }
        #expect(try all("journal/").contains(",2,"), "no journal revision 2")
        let health = try all("health/")
        #expect(health.contains(" iPhone,") && health.contains(" Watch,"))
        #expect(
            health.contains("HKQuantityTypeIdentifierDietaryWater")
                && health.contains("HKQuantityTypeIdentifierBodyMass"))
    }

    @Test func zstdFilesDecompressToThePlainBytes() throws {
        let plainRoot = scratchFolder()
        let zstdRoot = scratchFolder()
        defer {
            try? FileManager.default.removeItem(atPath: plainRoot)
            try? FileManager.default.removeItem(atPath: zstdRoot)
        }
        let plain = try DropGenerator.generate(options(plainRoot))
        var compressedOptions = options(zstdRoot)
        compressedOptions.zstd = true
        let compressed = try DropGenerator.generate(compressedOptions)
        #expect(compressed.files.map(\.path) == plain.files.map { $0.path + ".zst" })
        #expect(compressed.csvBytes == plain.csvBytes)
        #expect(compressed.totalBytes < plain.totalBytes)
        for file in plain.files {
            let original = try contents(plainRoot, file.path)
            #expect(try decompressed(zstdRoot + "/" + file.path + ".zst") == original, "\(file.path).zst")
        }
    }

    @Test func splitsBigKindsIntoNumberedFilesWithinTheLimit() throws {
        let root = scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        var small = options(root, clients: 20, days: 40)
        small.maxFileBytes = 64 * 1024
        let summary = try DropGenerator.generate(small)
        let instanceParts = summary.files.filter { $0.path.hasPrefix("tasks/instances/") }.map(\.path)
        let main = instanceParts.filter { !$0.hasSuffix("-reexport.csv") }
        let reexports = instanceParts.filter { $0.hasSuffix("-reexport.csv") }
        #expect(main.count >= 3 && !reexports.isEmpty)
        // Main parts first, numbered without gaps; the re-export parts take the next numbers and sort last.
        #expect(instanceParts == main + reexports)
        for (index, path) in main.enumerated() {
            #expect(path == "tasks/instances/instances-" + String(format: "%03d", index) + ".csv")
        }
        for (index, path) in reexports.enumerated() {
            #expect(path == "tasks/instances/instances-" + String(format: "%03d", main.count + index) + "-reexport.csv")
        }
        let header = try #require(lines(contents(root, main[0])).first)
        for path in instanceParts { #expect(try lines(contents(root, path)).first == header, "\(path) header") }
        for file in summary.files where !file.path.hasPrefix("subjects/") {
            #expect(file.bytes <= small.maxFileBytes, "\(file.path) is \(file.bytes) bytes")
        }
    }

    @Test func smallDropIsQuick() throws {
        let root = scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let start = Date()
        let summary = try DropGenerator.generate(options(root, clients: 5, days: 14))
        #expect(Date().timeIntervalSince(start) < 5)
        #expect(summary.totalRows > 100)
    }

    @Test func refusesBadOptionsAndNonEmptyFolders() throws {
        let root = scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        #expect(throws: DayfoldError.self) { try DropGenerator.generate(options(root, clients: 0)) }
        #expect(throws: DayfoldError.self) { try DropGenerator.generate(options(root, days: 0)) }
        var badDate = options(root)
        badDate.endDate = "2026-02-30"
        #expect(throws: DayfoldError.self) { try DropGenerator.generate(badDate) }
        _ = try DropGenerator.generate(options(root, clients: 1, days: 2))
        #expect(throws: DayfoldError.self) { try DropGenerator.generate(options(root, clients: 1, days: 2)) }
    }
}

/// The generated push exports (SPEC §11) have the shapes the Push seed
/// describes, and `--no-push` leaves them out.
@Suite struct GeneratedPushTests {
    @Test func pushFilesHaveTheSeedsShapesAndTheNeverReadColumns() throws {
        let root = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let drop = root.appendingPathComponent("drop")
        _ = try DropGenerator.generate(DropGeneratorOptions(clients: 40, days: 60, seed: 5, output: drop.path))
        for folder in ["installations", "intents", "deliveries", "receipts"] {
            let files = try FileManager.default.contentsOfDirectory(
                atPath: drop.appendingPathComponent("push/\(folder)").path)
            #expect(!files.isEmpty, "no push/\(folder) file")
        }
        // The columns dayfold must never read are filled, so every run proves they reach no output.
        let headers = try [
            "installations/installations.csv", "intents/intents-000.csv", "deliveries/deliveries-000.csv",
            "receipts/receipts-000.csv",
        ].map {
            String(decoding: try Data(contentsOf: drop.appendingPathComponent("push/\($0)")), as: UTF8.self)
                .split(separator: "\n").first.map(String.init) ?? ""
        }.joined(separator: ",")
        for column in [
            "device_id", "provider_token_hash", "title_key", "interpolation", "last_error_detail", "raw_payload",
        ] {
            #expect(headers.split(separator: ",").contains(Substring(column)), "no \(column) column")
        }
        let out = root.appendingPathComponent("out")
        let run = try DayfoldProcess.run([
            "run", "--input", drop.path, "--output", out.path, "--as-of", "2026-04-01T06:00:00Z",
        ])
        #expect(run.status == 0 || run.status == 3, "\(run.stderr)")
        let health = try ReportComparison.readCSV(out.appendingPathComponent("reports/push_delivery_health.csv"))
        func total(_ column: String) throws -> Int {
            let index = try #require(health.header.firstIndex(of: column))
            return health.rows.reduce(0) { $0 + (Int($1[index] ?? "") ?? 0) }
        }
        // Every flag and most outcomes occur: the benchmark drop exercises the rules.
        for column in [
            "delivered", "sent_unconfirmed", "pending", "failed_token_invalid", "failed_transient",
            "failed_rate_limited",
            "sent_in_quiet_hours", "sent_after_task_done", "sent_to_invalid_token",
        ] {
            #expect(try total(column) > 0, "no \(column) in a generated drop")
        }
        let reminders = try ReportComparison.readCSV(out.appendingPathComponent("reports/reminder_effectiveness.csv"))
        #expect(reminders.rows.count > 30, "reminder_effectiveness has \(reminders.rows.count) rows")
    }

    @Test func noPushLeavesThePushExportsOut() throws {
        let root = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let drop = root.appendingPathComponent("drop")
        _ = try DropGenerator.generate(
            DropGeneratorOptions(clients: 5, days: 10, seed: 5, output: drop.path, push: false))
        #expect(!FileManager.default.fileExists(atPath: drop.appendingPathComponent("push").path))
        #expect(
            !FileManager.default.fileExists(
                atPath: drop.appendingPathComponent("subjects/notification_preferences.csv").path))
    }
}
