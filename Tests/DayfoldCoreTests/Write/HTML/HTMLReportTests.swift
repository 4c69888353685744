import Foundation
import Testing

@testable import DayfoldCore

/// `--html` (SPEC §14): the report is published with the outputs, is the
/// same bytes from a whole run, a `--max-memory` run, a merge of shards and
/// a second run, carries no canary from the drop's free text, and splits
/// pages under the page limit.
@Suite(.serialized) struct HTMLReportTests {
    @Test func wholeMaxMemoryAndRepeatedRunsWriteTheSameReport() throws {
        let root = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let drop = try ReportDrops.plantedDrop(in: root)
        let whole = root.appendingPathComponent("whole")
        let again = root.appendingPathComponent("again")
        let partitioned = root.appendingPathComponent("partitioned")
        try ReportDrops.run(drop, whole)
        try ReportDrops.run(drop, again)
        try ReportDrops.run(drop, partitioned, ["--max-memory", "1M"])
        let manifest = try String(contentsOf: partitioned.appendingPathComponent("manifest.json"), encoding: .utf8)
        #expect(manifest.contains("\"partitioned run\""), "--max-memory 1M did not partition the run")
        let pages = try ReportDrops.pages(whole)
        #expect(pages["index.html"] != nil)
        #expect(pages.keys.filter { $0.hasPrefix("coach-") }.count == 3, "\(pages.keys.sorted())")
        #expect(try ReportDrops.pages(again) == pages, "a second run wrote other bytes")
        let other = try ReportDrops.pages(partitioned)
        #expect(other.keys.sorted() == pages.keys.sorted())
        for (name, data) in pages { #expect(other[name] == data, "\(name) differs under --max-memory") }
        // Listed in the manifest with their digests.
        let listed = try String(contentsOf: whole.appendingPathComponent("manifest.json"), encoding: .utf8)
        for name in pages.keys { #expect(listed.contains("\"report/\(name)\""), "\(name) is not in the manifest") }
    }

    @Test func mergeOfShardRunsWritesTheWholeRunsReport() throws {
        let root = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let sharded = root.appendingPathComponent("shards")
        let shard = try DayfoldProcess.run([
            "shard", ReportDrops.sample.path, "--shards", "3", "--out", sharded.path,
        ])
        #expect(shard.status == 0, "\(shard.stderr)")
        // Shards run without --html, merged with it; and run with it, merged without.
        func runShards(_ name: String, _ extra: [String]) throws -> [String] {
            try (0..<3).map { index in
                let output = root.appendingPathComponent("\(name)-\(index)")
                let run = try DayfoldProcess.run(
                    [
                        "run", ReportDrops.pipeline, "--input", sharded.appendingPathComponent("shard=\(index)").path,
                        "--output", output.path, "--as-of", ReportDrops.asOf,
                    ] + extra)
                #expect(run.status == 0, "shard \(index): \(run.stderr)")
                #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("report").path))
                return output.path
            }
        }
        let whole = root.appendingPathComponent("whole")
        try ReportDrops.run(ReportDrops.sample, whole)
        let pages = try ReportDrops.pages(whole)
        for (shards, flag) in [(try runShards("plain", []), ["--html"]), (try runShards("html", ["--html"]), [])] {
            let merged = root.appendingPathComponent("merged\(flag.count)")
            let merge = try DayfoldProcess.run(["merge"] + shards + ["--output", merged.path] + flag)
            #expect(merge.status == 0, "\(merge.stderr)")
            let mergedPages = try ReportDrops.pages(merged)
            #expect(mergedPages.keys.sorted() == pages.keys.sorted())
            for (name, data) in pages { #expect(mergedPages[name] == data, "\(name) differs after the merge") }
        }
    }

    @Test func noCanaryFromNotesMetadataPayloadsOrTokensReachesAPage() throws {
        let root = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let drop = try ReportDrops.plantedDrop(in: root)
        let output = root.appendingPathComponent("out")
        try ReportDrops.run(drop, output)
        let pages = try ReportDrops.pages(output)
        #expect(!pages.isEmpty)
        for (name, data) in pages {
            #expect(!String(decoding: data, as: UTF8.self).contains(ReportDrops.canary), "\(name) carries a canary")
        }
        // The push conformance drop's canary (never-read columns) too.
        let push = root.appendingPathComponent("push")
        let result = try DayfoldProcess.run([
            "run", TestPaths.fixtures.appendingPathComponent("ConformancePush/pipeline.json").path, "--input",
            TestPaths.fixtures.appendingPathComponent("ConformancePush/drop").path, "--output", push.path,
            "--as-of", ConformancePushTests.asOf, "--html",
        ])
        #expect(result.status == 0 || result.status == 3, "\(result.stderr)")
        let pushPages = try ReportDrops.pages(push)
        #expect(
            pushPages["index.html"].map { String(decoding: $0, as: UTF8.self).contains("Push delivery health") } == true
        )
        for (name, data) in pushPages {
            #expect(!String(decoding: data, as: UTF8.self).contains(ConformancePushTests.canary), "\(name)")
        }
    }

    @Test func pagesAreSplitUnderThePageLimitAndEveryLinkResolves() throws {
        let root = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let limit = 60_000
        var runner = PipelineRunner(
            config: try PipelineConfig.load(path: ReportDrops.pipeline), input: ReportDrops.sample.path,
            output: root.appendingPathComponent("out").path, asOf: try #require(parseAsOf(ReportDrops.asOf)))
        runner.html = true
        runner.htmlPageLimit = limit
        _ = try runner.run()
        let output = root.appendingPathComponent("out")
        let pages = try ReportDrops.pages(output)
        #expect(pages.keys.contains { $0.hasPrefix("coach-") && $0.hasSuffix("-2.html") }, "\(pages.keys.sorted())")
        var sections: [String: Int] = [:]
        for (name, data) in pages {
            #expect(data.count <= limit, "\(name) has \(data.count) bytes")
            let html = String(decoding: data, as: UTF8.self)
            for match in html.matches(of: /<section class="client" id="([^"]+)"/) {
                sections[String(match.1), default: 0] += 1
            }
            for match in html.matches(of: /href="([^"#]*)(#[^"]*)?"/) where !match.1.isEmpty {
                #expect(pages[String(match.1)] != nil, "\(name) links to a missing \(match.1)")
            }
        }
        let streaks = try ReportComparison.readCSV(output.appendingPathComponent("reports/streaks.csv"))
        #expect(sections.count == streaks.rows.count, "every relationship has one section")
        #expect(sections.values.allSatisfy { $0 == 1 })
    }

    @Test func thePipelineKeyHtmlIsABoolean() throws {
        let config = try PipelineConfig.parse(Data(#"{"html": true}"#.utf8), path: "p.json")
        #expect(config.html)
        #expect(throws: DayfoldError.self) { try PipelineConfig.parse(Data(#"{"html": "yes"}"#.utf8), path: "p.json") }
    }
}
