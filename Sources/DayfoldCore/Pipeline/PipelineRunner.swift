import Foundation

/// The run: ingest → normalize and compute → write → publish, with timings.
public struct PipelineRunner {
    public var config: PipelineConfig
    public var input: String
    public var output: String
    public var asOf: ParsedInstant
    /// Called with a stage name as each stage starts (progress on a terminal).
    public var onStage: (String) -> Void = { _ in }

    public init(config: PipelineConfig, input: String, output: String, asOf: ParsedInstant) {
        self.config = config
        self.input = input
        self.output = output
        self.asOf = asOf
    }

    /// What a finished run reports back.
    public struct Outcome: Sendable {
        public var rowsRead: Int
        public var rowsRejected: Int
        public var rejectFractionExceeded: Bool
        public var outputDirectory: String
    }

    public static func ingest(input: String, config: PipelineConfig, asOf: ParsedInstant) throws -> IngestedDrop {
        let layout = try DropLayout(root: input)
        let options = IngestOptions(
            asOf: asOf.instant, selfSources: Set(config.selfSources), defaultTimezone: config.defaultTimezone)
        var drop = try DropIngestor(layout: layout, options: options).ingest()
        for index in drop.accounts.indices {
            let relative = drop.accounts[index].path
            drop.accounts[index].sha256 = (try? SHA256Hasher.hex(file: (input as NSString).appendingPathComponent(relative))) ?? ""
        }
        return drop
    }

    public func run() throws -> Outcome {
        var timings: [(String, Double)] = []
        var clock = Date()
        func lap(_ stage: String) {
            timings.append((stage, Date().timeIntervalSince(clock)))
            clock = Date()
        }
        onStage("ingest")
        var drop = try PipelineRunner.ingest(input: input, config: config, asOf: asOf)
        lap("ingest")
        onStage("compute")
        var result = FactsStage.compute(drop, config: config, asOf: asOf)
        drop.warnings += result.drop.userZones.warnings.sorted()
        lap("compute")
        onStage("write")
        let publisher = try OutputPublisher(destination: output)
        do {
            var outputs: [(String, Int, String)] = []
            func write(_ relative: String, _ header: [String], _ rows: [[String?]]) throws {
                var writer = CSVReportWriter(path: publisher.path(relative), header: header)
                for row in rows { writer.append(row: row) }
                try writer.finish()
                outputs.append((relative, writer.rows, try SHA256Hasher.hex(file: publisher.path(relative))))
            }
            try write("reports/coach_daily_summary.csv", ReportTables.coachDailySummaryHeader, ReportTables.coachDailySummary(result))
            try write("reports/progress_ranges.csv", ReportTables.progressHeader, ReportTables.progressRanges(result))
            try write("reports/risk_signals.csv", ReportTables.riskSignalsHeader, ReportTables.riskSignals(result))
            try write("reports/streaks.csv", ReportTables.streaksHeader, ReportTables.streaks(result))
            try write("rejects/rejects.csv", ReportTables.rejectsHeader, ReportTables.rejects(drop))
            lap("write")
            result.timings = timings
            let manifest = Manifest(
                pipelineName: config.name, configDigest: config.digest, asOf: asOf.instant, inputs: drop.accounts,
                outputs: outputs, warnings: drop.warnings, failedImports: drop.failedImports.sorted(by: bytesLess),
                timings: timings)
            try Data(manifest.json().utf8).write(to: URL(fileURLWithPath: publisher.path("manifest.json")))
            try publisher.publish()
        } catch {
            publisher.abandon()
            if let error = error as? DayfoldError { throw error }
            throw DayfoldError(.output, "writing outputs failed: \(error)")
        }
        let read = drop.rowsRead
        let rejected = drop.rowsRejected
        let exceeded = read > 0 && Double(rejected) / Double(read) > config.maxRejectFraction
        return Outcome(rowsRead: read, rowsRejected: rejected, rejectFractionExceeded: exceeded, outputDirectory: publisher.destination)
    }
}
