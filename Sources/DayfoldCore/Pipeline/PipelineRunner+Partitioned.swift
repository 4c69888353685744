import Foundation

/// A run under a memory budget (SPEC §8 `max_memory`): the drop is split by
/// client user (`PartitionRouter`), each partition is ingested and computed on
/// its own, and the sorted partition tables are merged into the same outputs
/// a whole run writes.
extension PipelineRunner {
    /// The drop's CSV bytes (`.zst` files count 6× their size).
    static func inputBytes(_ layout: DropLayout) -> Int64 {
        var bytes: Int64 = 0
        for file in layout.allFiles {
            let size = layout.size(of: file.relativePath)
            bytes += file.relativePath.hasSuffix(".zst") ? size * 6 : size
        }
        return bytes
    }

    /// Partitions needed for `budget` bytes: a partition's ingest and facts
    /// hold about 1.4 × its CSV bytes (measured), plus a fixed base.
    static func partitionCount(_ layout: DropLayout, budget: Int64?) -> Int {
        guard let budget else { return 1 }
        let bytes = inputBytes(layout)
        let usable = max(budget - (64 << 20), budget / 2, 1)
        // A partition's peak is about 1.4× its input; planning for 2× keeps
        // partitions near one size whatever the drop's size (with few
        // partitions, rounding up their count moved their size by up to a
        // third, and peak memory with it).
        let needed = Int64(Double(bytes) * 2.0)
        return Int(min(64, max(1, (needed + usable - 1) / usable)))
    }

    /// The tables merged from the partitions' sorted copies: name, sort key
    /// columns, the report it also feeds; the largest first (their merges
    /// start first). With push/ also SPEC §11.3's per-row tables; its two
    /// summaries are sums over partitions, not merges (`PushSummaries.combine`).
    static func partitionTables(push: Bool) -> [(name: String, keyColumns: [Int], report: String?)] {
        [
            ("adherence_events", [2], nil), ("relationship_days", [0], "reports/coach_daily_summary.csv"),
            ("client_days", [0], nil), ("progress_ranges", [0], "reports/progress_ranges.csv"),
            ("risk_signals", [0], "reports/risk_signals.csv"), ("streaks", [0], "reports/streaks.csv"),
        ]
            + (push
                ? [
                    // push_deliveries is sorted by (day, delivery_id): a day's rows lie in every partition.
                    ("push_deliveries", [10, 0], nil),
                    ("reminder_effectiveness", [0], "reports/reminder_effectiveness.csv"),
                ] : [])
    }

    struct PartitionedParts {
        var accounts: [FileAccount]
        var rejects: [RejectedRecord]
        var warnings: [String]
        var failedImports: Set<String>
        var outputs: [(String, Int, String)]
    }

    func runPartitioned(_ layout: DropLayout, partitions: Int, publisher: OutputPublisher) throws -> PartitionedParts {
        debugRSS("start")
        let spill = publisher.path(".spill")
        defer { try? FileManager.default.removeItem(atPath: spill) }
        let options = IngestOptions(
            asOf: asOf.instant, selfSources: Set(config.selfSources), defaultTimezone: config.defaultTimezone)
        let router = try PartitionRouter(
            layout: layout, options: options, partitions: partitions, root: spill + "/drops")
        let folders = try router.run()
        let original = router.originalPaths
        trimHeap()
        debugRSS("routed")
        let owned = router.ownedUsers()
        // Files every partition reads whole: accounted and rejected once.
        let subjects = Set(PartitionRouter.sharedFiles(layout).map(\.relativePath))
        var pushHealth: [PushHealthRow] = []
        var pushIntents: [PushIntentSummaryRow] = []
        var accounts: [String: FileAccount] = [:]
        var rejects: [RejectedRecord] = []
        var zoneWarnings: Set<String> = []
        var invalidSchemaRows = 0
        var healthFolderWarnings: Set<String> = []
        var failedImports: Set<String> = []
        var fields: [String: [ParquetField]] = [:]
        for (index, folder) in folders.enumerated() {
            defer { trimHeap() }
            // Spill files are not hashed: the manifest's digests are the
            // union pass's (and the subjects' and exports', hashed below).
            var partitionLayout = DropLayout.Options()
            partitionLayout.isPartition = true
            let drop = try PipelineRunner.ingest(
                input: folder, config: config, asOf: asOf, hashInputs: false, hashWhileReading: false,
                reportHeaders: false, layoutOptions: partitionLayout)
            // The partition's spill is read: removed now, its pages are
            // dropped before the kernel writes them to disk (left until the
            // end, a large drop's spill and partition tables passed the dirty
            // page threshold and the later partitions were written at disk pace).
            try? FileManager.default.removeItem(atPath: folder)
            debugRSS("partition \(index) ingested")
            let result = FactsStage.compute(drop, config: config, asOf: asOf, owned: owned[index])
            for var account in drop.accounts where index == 0 || !subjects.contains(account.path) {
                account.path = original[account.path] ?? account.path
                if var merged = accounts[account.path] {
                    merged.rowsRead += account.rowsRead
                    merged.accepted += account.accepted
                    merged.duplicate += account.duplicate
                    merged.ignored += account.ignored
                    merged.rejected += account.rejected
                    merged.failed = merged.failed ?? account.failed
                    merged.skipped = merged.skipped ?? account.skipped
                    accounts[account.path] = merged
                } else {
                    accounts[account.path] = account
                }
            }
            for var reject in drop.rejects where index == 0 || !subjects.contains(reject.file) {
                reject.file = original[reject.file] ?? reject.file
                rejects.append(reject)
            }
            for (user, warnings) in drop.userZones.warningsByUser where owned[index].contains(user) {
                zoneWarnings.formUnion(warnings)
            }
            invalidSchemaRows += drop.invalidSchemaRows
            healthFolderWarnings.formUnion(drop.healthFolderWarnings)
            failedImports.formUnion(drop.failedImports)
            debugRSS("partition \(index) computed")
            // The partition's tables are written side by side (they only read
            // its facts), the largest (the events) first.
            var builders: [@Sendable () -> OutputTable] = [
                { ReportTables.adherenceEvents(result) }, { ReportTables.relationshipDays(result) },
                { ReportTables.clientDays(result) }, { ReportTables.progressRanges(result) },
                { ReportTables.riskSignals(result) }, { ReportTables.streaks(result) },
            ]
            if let push = result.push {
                builders += [{ ReportTables.pushDeliveries(result) }, { ReportTables.reminderEffectiveness(result) }]
                pushHealth += push.health
                pushIntents += push.intentSummary
            }
            let folder = spill + "/out-\(index)"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let written = try ParallelJobs(
                builders.map { build in
                    {
                        let table = build()
                        try TableWriters.writeCSV(table, to: folder + "/\(table.name).csv", guardFormulas: false)
                        return (table.name, table.fields)
                    }
                }
            ).run()
            for (name, tableFields) in written { fields[name] = tableFields }
        }
        for folder in ["reports", "rejects", "snapshots"] + (debugTables ? ["debug"] : []) {
            try FileManager.default.createDirectory(atPath: publisher.path(folder), withIntermediateDirectories: true)
        }
        let debug = debugTables
        var jobs: [@Sendable () throws -> [(String, Int, String)]] = PipelineRunner.partitionTables(
            push: layout.hasPushFolder
        ).map { table in
            { [fields] in
                let merger = SortedTableMerger(fields: fields[table.name] ?? [], keyColumns: table.keyColumns)
                let snapshot = "snapshots/\(table.name).parquet"
                let rows = try merger.merge(
                    inputs: folders.indices.map { spill + "/out-\($0)/\(table.name).csv" },
                    report: table.report.map(publisher.path), snapshot: publisher.path(snapshot),
                    debug: debug ? publisher.path("debug/\(table.name).csv") : nil)
                debugRSS("merged \(table.name)")
                var written = [(snapshot, rows, try SHA256Hasher.hex(file: publisher.path(snapshot)))]
                if let report = table.report {
                    written.append((report, rows, try SHA256Hasher.hex(file: publisher.path(report))))
                }
                return written
            }
        }
        if layout.hasPushFolder {
            // The summaries: each partition's counts of a group summed, then
            // written as a whole run writes them.
            let summaries: [OutputTable] = [
                ReportTables.pushDeliveryHealth(rows: PushSummaries.combine(pushHealth)),
                ReportTables.pushIntentSummary(rows: PushSummaries.combine(pushIntents)),
            ]
            for table in summaries {
                jobs.append {
                    try PipelineRunner.writeReportAndSnapshot(
                        table, report: "reports/\(table.name).csv", in: publisher.staging, debug: debug)
                }
            }
        }
        let rejectRows = ReportTables.rejects(rejects)
        jobs.append {
            let path = publisher.path("rejects/rejects.csv")
            let writer = try CSVReportWriter(path: path, header: ReportTables.rejectsHeader)
            for row in rejectRows { try writer.append(row: row) }
            try writer.finish()
            return [("rejects/rejects.csv", writer.rows, writer.sha256 ?? "")]
        }
        debugRSS("partitions done")
        // Merges hold a row group each (tens of MB), far less than a
        // partition's facts, so two run side by side.
        let hashedFiles = layout.readingOrder.filter { accounts[$0.relativePath] != nil }
        // The union pass hashed the files it read; the others' SHA-256 (the
        // subjects, Apple Health exports) is taken alongside the merges.
        let known = router.digests
        let inputPaths = hashedFiles.map { known[$0.relativePath] == nil ? $0.absolutePath : nil }
        let inputHashes = BackgroundValue {
            inputPaths.map { path in path.map { (try? SHA256Hasher.hex(file: $0)) ?? "" } }
        }
        var outputs = try ParallelJobs(jobs).run().flatMap { $0 }
        outputs.sort { bytesLess($0.0, $1.0) }
        debugRSS("merges done")
        var ordered: [FileAccount] = []
        for (file, hash) in zip(hashedFiles, inputHashes.value()) {
            guard var account = accounts[file.relativePath] else { continue }
            account.sha256 = hash ?? known[file.relativePath] ?? ""
            ordered.append(account)
        }
        debugRSS("inputs hashed")
        return PartitionedParts(
            accounts: ordered, rejects: rejects,
            warnings: PipelineRunner.warnings(
                invalidSchemaRows: invalidSchemaRows, zoneWarnings: zoneWarnings, accounts: ordered)
                + healthFolderWarnings.sorted(by: bytesLess),
            failedImports: failedImports, outputs: outputs)
    }
}

private let debugClock = Date()

/// Peak RSS so far and seconds since start, on stderr, when DAYFOLD_DEBUG_RSS
/// is set (for tuning the budget).
func debugRSS(_ label: String) {
    guard ProcessInfo.processInfo.environment["DAYFOLD_DEBUG_RSS"] != nil,
        let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
        let peak = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM") }),
        let now = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS") })
    else { return }
    let seconds = String(format: "%.1f", Date().timeIntervalSince(debugClock))
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    let cpu = String(
        format: "%.1f u %.1f s", Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6,
        Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6)
    FileHandle.standardError.write(Data("dayfold: \(seconds) s (\(cpu)) \(label): \(peak) \(now)\n".utf8))
}
