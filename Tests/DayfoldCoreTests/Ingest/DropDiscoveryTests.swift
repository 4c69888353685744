import Foundation
import Testing

@testable import DayfoldCore

/// SPEC §10 "No file is skipped silently", "A drop that is not a drop
/// publishes nothing" and the file half of "Hostile and broken input": every
/// file of a drop is read or listed with its reason; links, FIFOs and devices
/// are never opened; gzip files and the Health app's archive are read.
@Suite struct DropDiscoveryTests {
    static let asOf = "2026-03-31T18:00:00Z"
    static let healthUser = "35efb91b-56cb-578b-9f77-6ae3a43d2c71"

    /// A copy of the sample drop in a new temporary folder (`root/drop`).
    static func sampleDrop(_ name: String = #function) throws -> (root: URL, drop: URL) {
        let root = try TestPaths.temporaryDirectory(name)
        let drop = root.appendingPathComponent("drop")
        try FileManager.default.copyItem(
            at: TestPaths.repositoryRoot.appendingPathComponent("SampleData/demo"), to: drop)
        return (root, drop)
    }

    /// Runs `dayfold` and kills it after `seconds` (a hang fails the test, never the suite).
    static func run(_ arguments: [String], within seconds: Double = 120) throws -> (DayfoldProcess, timedOut: Bool) {
        let result = try BoundedProcess.run(arguments, limit: seconds)
        return (DayfoldProcess(status: result.status, stdout: result.stdout, stderr: result.stderr), result.timedOut)
    }

    static func runDrop(_ drop: URL, _ output: URL, _ extra: [String] = []) throws -> DayfoldProcess {
        let (result, timedOut) = try run(
            ["run", "--input", drop.path, "--output", output.path, "--as-of", asOf] + extra)
        #expect(!timedOut, "the run hung")
        return result
    }

    static func manifest(_ output: URL) throws -> String {
        try String(contentsOf: output.appendingPathComponent("manifest.json"), encoding: .utf8)
    }

    static func text(_ output: URL, _ file: String) throws -> String {
        try String(contentsOf: output.appendingPathComponent(file), encoding: .utf8)
    }

    /// The manifest's `unrecognized_files` entries as (path, reason).
    static func unrecognized(_ output: URL) throws -> [(path: String, reason: String)] {
        let data = try Data(contentsOf: output.appendingPathComponent("manifest.json"))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let list = try #require(object["unrecognized_files"] as? [[String: String]])
        return list.map { ($0["path"] ?? "", $0["reason"] ?? "") }
    }

    static func account(_ output: URL, _ path: String) throws -> [String: Any]? {
        let data = try Data(contentsOf: output.appendingPathComponent("manifest.json"))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let inputs = try #require(object["inputs"] as? [[String: Any]])
        return inputs.first { $0["path"] as? String == path }
    }

    static func gzip(_ file: URL) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/gzip")
        process.arguments = ["-n", file.path]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }

    static let reports = [
        "reports/coach_daily_summary.csv", "reports/progress_ranges.csv", "reports/streaks.csv",
        "reports/risk_signals.csv",
    ]

    // MARK: gzip

    @Test func eventsInACsvGzFileAreCountedAndUsed() throws {
        let (root, drop) = try Self.sampleDrop()
        defer { try? FileManager.default.removeItem(at: root) }
        let plain = root.appendingPathComponent("plain")
        #expect(try Self.runDrop(drop, plain).status == 0)
        try Self.gzip(drop.appendingPathComponent("tasks/status_events/events-001.csv"))
        let zipped = root.appendingPathComponent("gz")
        let result = try Self.runDrop(drop, zipped)
        #expect(result.status == 0, "\(result.stderr)")
        let account = try #require(try Self.account(zipped, "tasks/status_events/events-001.csv.gz"))
        #expect(account["rows_read"] as? Int == 1013)
        #expect(account["accepted"] as? Int == 1007)
        for report in Self.reports {
            #expect(try Self.text(zipped, report) == Self.text(plain, report), "\(report)")
        }
        // And the same outputs under a memory budget (the gzip file is routed).
        let different = try PartitionedRunTests.differences(
            input: drop, pipeline: [], asOf: Self.asOf, budget: "1K")
        #expect(different.isEmpty, "\(different)")
    }

    @Test func aTruncatedGzFileFailsTheRunNamingIt() throws {
        let (root, drop) = try Self.sampleDrop()
        defer { try? FileManager.default.removeItem(at: root) }
        let events = drop.appendingPathComponent("tasks/status_events/events-001.csv")
        try Self.gzip(events)
        let gz = drop.appendingPathComponent("tasks/status_events/events-001.csv.gz")
        let bytes = try Data(contentsOf: gz)
        try bytes.prefix(bytes.count / 2).write(to: gz)
        let output = root.appendingPathComponent("out")
        let result = try Self.runDrop(drop, output)
        #expect(result.status == 1)
        #expect(result.stderr.contains("tasks/status_events/events-001.csv.gz"), "\(result.stderr)")
        #expect(result.stderr.contains("gzip"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }

    // MARK: Apple Health archives and folders

    /// The sample's export.xml moved into the Health app's archive (with the
    /// entries the app writes beside it): the same rows as the XML read directly.
    @Test func anExportZipGivesTheRowsOfItsXMLAndCountsTheOtherEntries() throws {
        let (root, drop) = try Self.sampleDrop()
        defer { try? FileManager.default.removeItem(at: root) }
        let plain = root.appendingPathComponent("plain")
        #expect(try Self.runDrop(drop, plain).status == 0)
        let folder = drop.appendingPathComponent("health/\(Self.healthUser)")
        let xml = try [UInt8](Data(contentsOf: folder.appendingPathComponent("export.xml")))
        try FileManager.default.removeItem(at: folder.appendingPathComponent("export.xml"))
        try ZipFixture.write(
            [
                ("apple_health_export/export.xml", xml),
                ("apple_health_export/export_cda.xml", Array("<?xml version=\"1.0\"?><ClinicalDocument/>".utf8)),
                ("apple_health_export/workout-routes/route_2024-01-01_1.gpx", Array("<gpx/>".utf8)),
                ("apple_health_export/electrocardiograms/ecg_2024-01-01.csv", Array("Name,x\n".utf8)),
            ], to: folder.appendingPathComponent("export.zip"))
        let zipped = root.appendingPathComponent("zip")
        let result = try Self.runDrop(drop, zipped)
        #expect(result.status == 0, "\(result.stderr)")
        for report in Self.reports + ["rejects/rejects.csv"] {
            let expected = try Self.text(plain, report).replacingOccurrences(of: "/export.xml,", with: "/export.zip,")
            #expect(try Self.text(zipped, report) == expected, "\(report)")
        }
        let account = try #require(try Self.account(zipped, "health/\(Self.healthUser)/export.zip"))
        let direct = try #require(try Self.account(plain, "health/\(Self.healthUser)/export.xml"))
        for key in ["rows_read", "accepted", "duplicate", "ignored", "rejected"] {
            #expect(account[key] as? Int == direct[key] as? Int, "\(key)")
        }
        #expect((account["rows_read"] as? Int ?? 0) > 0)
        let skipped = try #require(account["skipped"] as? String)
        #expect(skipped.hasPrefix("3 other entries not read"), "\(skipped)")
        #expect(skipped.contains("export_cda.xml"))
        let different = try PartitionedRunTests.differences(input: drop, pipeline: [], asOf: Self.asOf, budget: "1K")
        #expect(different.isEmpty, "\(different)")
    }

    @Test func aDamagedExportZipIsAFailedImportForItsUser() throws {
        let (root, drop) = try Self.sampleDrop()
        defer { try? FileManager.default.removeItem(at: root) }
        let folder = drop.appendingPathComponent("health/\(Self.healthUser)")
        let xml = try [UInt8](Data(contentsOf: folder.appendingPathComponent("export.xml")))
        try FileManager.default.removeItem(at: folder.appendingPathComponent("export.xml"))
        let archive = folder.appendingPathComponent("export.zip")
        try ZipFixture.write([("apple_health_export/export.xml", xml)], to: archive)
        let bytes = try Data(contentsOf: archive)
        try bytes.prefix(bytes.count - 30).write(to: archive)
        let output = root.appendingPathComponent("out")
        let result = try Self.runDrop(drop, output)
        #expect(result.status == 0, "\(result.stderr)")
        let account = try #require(try Self.account(output, "health/\(Self.healthUser)/export.zip"))
        #expect(account["rows_read"] as? Int == 0)
        #expect((account["failed"] as? String ?? "").hasPrefix("zip: "))
        #expect(try Self.manifest(output).contains("\"failed_imports\": [\"\(Self.healthUser)\"]"))
        #expect(try Self.text(output, "rejects/rejects.csv").contains("export.zip,0,health,import_failed:zip,"))
    }

    @Test func anUnzippedAppleHealthExportFolderIsRead() throws {
        let (root, drop) = try Self.sampleDrop()
        defer { try? FileManager.default.removeItem(at: root) }
        let plain = root.appendingPathComponent("plain")
        #expect(try Self.runDrop(drop, plain).status == 0)
        let folder = drop.appendingPathComponent("health/\(Self.healthUser)")
        let export = folder.appendingPathComponent("apple_health_export")
        try FileManager.default.createDirectory(
            at: export.appendingPathComponent("workout-routes"), withIntermediateDirectories: true)
        try FileManager.default.moveItem(
            at: folder.appendingPathComponent("export.xml"), to: export.appendingPathComponent("export.xml"))
        try Data("<gpx/>".utf8).write(to: export.appendingPathComponent("workout-routes/route_1.gpx"))
        let output = root.appendingPathComponent("folder")
        let result = try Self.runDrop(drop, output)
        #expect(result.status == 0, "\(result.stderr)")
        for report in Self.reports {
            #expect(try Self.text(output, report) == Self.text(plain, report), "\(report)")
        }
        let path = "health/\(Self.healthUser)/apple_health_export/export.xml"
        let account = try #require(try Self.account(output, path))
        let direct = try #require(try Self.account(plain, "health/\(Self.healthUser)/export.xml"))
        #expect(account["accepted"] as? Int == direct["accepted"] as? Int)
        #expect((account["skipped"] as? String ?? "").contains("workout-routes/route_1.gpx"))
        #expect(try Self.unrecognized(output).isEmpty)
        let different = try PartitionedRunTests.differences(input: drop, pipeline: [], asOf: Self.asOf, budget: "1K")
        #expect(different.isEmpty, "\(different)")
    }

    @Test(arguments: ["health/export.xml", "health/export.zip", "health/apple_health_export/export.xml"])
    func anAppleHealthExportWithoutAUserFolderIsAUsageError(path: String) throws {
        let (root, drop) = try Self.sampleDrop()
        defer { try? FileManager.default.removeItem(at: root) }
        let target = drop.appendingPathComponent(path)
        try FileManager.default.createDirectory(
            at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("<HealthData/>".utf8).write(to: target)
        let output = root.appendingPathComponent("out")
        let result = try Self.runDrop(drop, output)
        #expect(result.status == 2)
        #expect(result.stderr.contains(path), "\(result.stderr)")
        #expect(result.stderr.contains("put it in health/<user_id>/"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }

    @Test func aHealthFolderNamedAfterNoClientIsReadAndWarnedOnce() throws {
        let (root, drop) = try Self.sampleDrop()
        defer { try? FileManager.default.removeItem(at: root) }
        let health = drop.appendingPathComponent("health")
        try FileManager.default.moveItem(
            at: health.appendingPathComponent(Self.healthUser), to: health.appendingPathComponent("stranger"))
        let output = root.appendingPathComponent("out")
        #expect(try Self.runDrop(drop, output).status == 0)
        let account = try #require(try Self.account(output, "health/stranger/export.xml"))
        #expect((account["accepted"] as? Int ?? 0) > 0)
        let manifest = try Self.manifest(output)
        #expect(manifest.components(separatedBy: "health/stranger/: folder name is not a client_user_id").count == 2)
        #expect(!manifest.contains("health/\(Self.healthUser)/: folder name"))
        #expect(try Self.text(output, "reports/progress_ranges.csv").contains("\nstranger,"))
    }

    // MARK: links, FIFOs, devices, names

    @Test func aFIFOWhereATaskFileWouldBeFailsPromptlyWithoutOpeningIt() throws {
        let (root, drop) = try Self.sampleDrop()
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(mkfifo(drop.appendingPathComponent("tasks/instances/x.csv").path, 0o644) == 0)
        let output = root.appendingPathComponent("out")
        for command in [["run", "--input", drop.path, "--output", output.path], ["validate", drop.path]] {
            let (result, timedOut) = try Self.run(command + ["--as-of", Self.asOf], within: 60)
            #expect(!timedOut, "\(command[0]) hung on the FIFO")
            #expect(result.status == 1, "\(result.stderr)")
            #expect(result.stderr.contains("tasks/instances/x.csv: cannot read: a FIFO"), "\(result.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }

    @Test func aFIFONamedExportXMLIsListedAndTheRunGoesOn() throws {
        let (root, drop) = try Self.sampleDrop()
        defer { try? FileManager.default.removeItem(at: root) }
        let fifo = drop.appendingPathComponent("health/u9/export.xml")
        try FileManager.default.createDirectory(at: fifo.deletingLastPathComponent(), withIntermediateDirectories: true)
        #expect(mkfifo(fifo.path, 0o644) == 0)
        let output = root.appendingPathComponent("out")
        let result = try Self.runDrop(drop, output)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("dayfold: 1 file not read: health/u9/export.xml (a FIFO"), "\(result.stderr)")
        let listed = try Self.unrecognized(output)
        #expect(listed.map(\.path) == ["health/u9/export.xml"])
        #expect(listed.first?.reason.contains("FIFO") == true)
    }

    @Test func aCsvLinkedToDevZeroIsNeverOpened() throws {
        let (root, drop) = try Self.sampleDrop()
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createSymbolicLink(
            atPath: drop.appendingPathComponent("health/zero.csv").path, withDestinationPath: "/dev/zero")
        let output = root.appendingPathComponent("out")
        let result = try Self.runDrop(drop, output)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Self.unrecognized(output).map(\.path) == ["health/zero.csv"])
        #expect(try Self.account(output, "health/zero.csv") == nil)
        // Even when links may leave the drop, a device is not a regular file.
        let followed = root.appendingPathComponent("followed")
        #expect(try Self.runDrop(drop, followed, ["--follow-links"]).status == 0)
        let listed = try Self.unrecognized(followed)
        #expect(listed.map(\.path) == ["health/zero.csv"])
        #expect(listed.first?.reason == "symbolic link to a character device, not a regular file")
    }

    @Test func aLinkToEtcPasswdLeaksNothingOfIt() throws {
        let (root, drop) = try Self.sampleDrop()
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createSymbolicLink(
            atPath: drop.appendingPathComponent("health/health-009.csv").path, withDestinationPath: "/etc/passwd")
        let output = root.appendingPathComponent("out")
        #expect(try Self.runDrop(drop, output).status == 0)
        let passwd = try String(contentsOfFile: "/etc/passwd", encoding: .utf8)
        let firstField = try #require(passwd.split(separator: ":").first.map(String.init))
        let marker = try #require(passwd.split(separator: "\n").first.map(String.init))
        let files = try #require(FileManager.default.subpathsOfDirectory(atPath: output.path) as [String]?)
        for file in files {
            guard let data = FileManager.default.contents(atPath: output.appendingPathComponent(file).path) else {
                continue
            }
            let text = String(decoding: data, as: UTF8.self)
            #expect(!text.contains(marker), "\(file) holds /etc/passwd's first line")
            #expect(!text.contains("\(firstField):x:"), "\(file) holds a line of /etc/passwd")
        }
        let listed = try Self.unrecognized(output)
        #expect(listed.map(\.path) == ["health/health-009.csv"])
        #expect(listed.first?.reason.contains("outside the drop") == true)
    }

    @Test func danglingAndLoopingLinksAreListedByValidate() throws {
        let (root, drop) = try Self.sampleDrop()
        defer { try? FileManager.default.removeItem(at: root) }
        let health = drop.appendingPathComponent("health")
        try FileManager.default.createSymbolicLink(
            atPath: health.appendingPathComponent("gone.csv").path, withDestinationPath: "nowhere.csv")
        try FileManager.default.createSymbolicLink(
            atPath: health.appendingPathComponent("a.csv").path, withDestinationPath: "b.csv")
        try FileManager.default.createSymbolicLink(
            atPath: health.appendingPathComponent("b.csv").path, withDestinationPath: "a.csv")
        // A link inside the drop is read.
        try FileManager.default.createSymbolicLink(
            atPath: health.appendingPathComponent("inside.csv").path, withDestinationPath: "health-000.csv")
        let (result, timedOut) = try Self.run(["validate", drop.path, "--as-of", Self.asOf, "--json"], within: 60)
        #expect(!timedOut)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stderr.contains("dayfold: 3 files not read: health/a.csv (symbolic link loop)"), "\(result.stderr)")
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let listed = try #require(object["unrecognized_files"] as? [[String: String]])
        #expect(listed.map { $0["path"] ?? "" } == ["health/a.csv", "health/b.csv", "health/gone.csv"])
        #expect(listed.map { $0["reason"] ?? "" }.last == "dangling symbolic link")
        let files = try #require(object["files"] as? [[String: Any]])
        let inside = files.first { $0["path"] as? String == "health/inside.csv" }
        #expect(inside?["rows_read"] as? Int == 540)
    }

    @Test func aHealthFolderWhoseNameIsNotUTF8IsListedWithItsFile() throws {
        let (root, drop) = try Self.sampleDrop()
        defer { try? FileManager.default.removeItem(at: root) }
        let folder = Array(drop.appendingPathComponent("health").path.utf8) + [0x2F, 0x75, 0xFF, 0xFE]
        #expect(Self.withPath(folder) { mkdir($0, 0o755) } == 0)
        let rows = try [UInt8](Data(contentsOf: drop.appendingPathComponent("health/health-000.csv")))
        let file = folder + Array("/rows.csv".utf8)
        let descriptor = Self.withPath(file) { open($0, O_WRONLY | O_CREAT, 0o644) }
        #expect(descriptor >= 0)
        rows.withUnsafeBytes { _ = write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        let output = root.appendingPathComponent("out")
        #expect(try Self.runDrop(drop, output).status == 0)
        let listed = try Self.unrecognized(output)
        #expect(listed.map(\.path) == ["health/u\\xFF\\xFE/rows.csv"])
        #expect(listed.first?.reason == "name is not valid UTF-8")
    }

    static func withPath<Result>(_ bytes: [UInt8], _ body: (UnsafePointer<CChar>) -> Result) -> Result {
        (bytes + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                guard let base = chars.baseAddress else { preconditionFailure("a terminated path is never empty") }
                return body(base)
            }
        }
    }

    // MARK: drops that are not drops

    @Test func anEmptyFolderOrTheFolderAboveTheDropPublishesNothing() throws {
        let (root, sample) = try Self.sampleDrop()
        defer { try? FileManager.default.removeItem(at: root) }
        let above = root.appendingPathComponent("above")
        let drop = above.appendingPathComponent("demo")
        try FileManager.default.createDirectory(at: above, withIntermediateDirectories: true)
        try FileManager.default.moveItem(at: sample, to: drop)
        let output = root.appendingPathComponent("out")
        #expect(try Self.runDrop(drop, output).status == 0)
        let before = try Self.manifest(output)
        let empty = root.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        for (input, hint) in [(empty, nil), (above, drop.path)] {
            let result = try Self.runDrop(input, output)
            #expect(result.status == 2, "\(result.stderr)")
            #expect(result.stderr.contains("no export files under \(input.path)"), "\(result.stderr)")
            #expect(result.stderr.contains("subjects/, tasks/instances/"), "\(result.stderr)")
            if let hint { #expect(result.stderr.contains("did you mean \(hint)?"), "\(result.stderr)") }
            #expect(try Self.manifest(output) == before)
        }
        // A layout folder holding nothing of the layout is no drop either.
        try FileManager.default.createDirectory(
            at: empty.appendingPathComponent("tasks/instances"), withIntermediateDirectories: true)
        try Data("x".utf8).write(to: empty.appendingPathComponent("tasks/instances/notes.txt"))
        let result = try Self.runDrop(empty, output)
        #expect(result.status == 2)
        #expect(try Self.manifest(output) == before)
    }

    // MARK: record limit

    /// 65 MiB of NUL bytes after the header (a sparse file: cheap on disk):
    /// the record never ends, and the run fails at the 64 MiB limit.
    @Test func aFileThatNeverEndsARecordFailsAtTheRealLimit() throws {
        let (root, drop) = try Self.sampleDrop()
        defer { try? FileManager.default.removeItem(at: root) }
        let path = drop.appendingPathComponent("tasks/instances/zz-nul.csv").path
        try Data(BadInputTests.instancesHeader.utf8).write(to: URL(fileURLWithPath: path))
        #expect(truncate(path, off_t(65 << 20)) == 0)
        let output = root.appendingPathComponent("out")
        let result = try Self.runDrop(drop, output)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("tasks/instances/zz-nul.csv:2:1: record longer than 64 MiB"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }
}
