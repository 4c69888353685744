import Foundation

/// What the merge of partition outputs needs: from a partitioned run, or
/// from shard outputs (`dayfold merge`, SPEC §13).
struct PartitionMerge: Sendable {
    /// In partition (shard) order: partition 0 accounts the shared files.
    var contributions: [PartitionContribution]
    /// Each partition's folder of sorted parts (`<table>.csv`).
    var partFolders: [String]
    /// Partition file (a spill's `.zst` name) → the drop's file.
    var originalPaths: [String: String]
    /// Files every partition reads whole (accounted and rejected once).
    var sharedFiles: Set<String>
    /// The drop's files in reading order (the manifest's order).
    var readingOrder: [String]
    /// The drop's files' SHA-256.
    var digests: [String: String]
    var hasPush: Bool
    /// Warnings of the run itself (`--verify-inputs`), after the merged ones.
    var extraWarnings: [String] = []
    /// Merge one table at a time: a merge holds a row group of its table
    /// (tens of MB for the largest), and two side by side passed a small
    /// `max_memory` (256M on a 1 GB drop peaked at 290 MB).
    var oneAtATime = false
    /// Only these tables are merged (an as-of series step keeps its history
    /// tables alone); nil: every table.
    var onlyTables: Set<String>?
}

extension PipelineRunner {
    /// Merges partition outputs into what a whole run writes into `staging`:
    /// the sorted tables merged, the push summaries summed, the accounts,
    /// rejects and warnings joined. Returns the manifest's parts.
    /// `collector` (the HTML report's) sees the merged tables' row groups.
    static func mergePartitions(
        _ inputs: PartitionMerge, staging: String, debug: Bool, collector: HTMLReportCollector? = nil
    ) throws -> PartitionedParts {
        let path: @Sendable (String) -> String = { staging + "/" + $0 }
        var pushHealth: [PushHealthRow] = []
        var pushIntents: [PushIntentSummaryRow] = []
        var accounts: [String: FileAccount] = [:]
        var rejects: [RejectedRecord] = []
        var zoneWarnings: Set<String> = []
        var invalidSchemaRows = 0
        var healthFolderWarnings: Set<String> = []
        var failedImports: Set<String> = []
        var fields: [String: [ParquetField]] = [:]
        for (index, contribution) in inputs.contributions.enumerated() {
            for var account in contribution.accounts where index == 0 || !inputs.sharedFiles.contains(account.path) {
                account.path = inputs.originalPaths[account.path] ?? account.path
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
            for var reject in contribution.rejects where index == 0 || !inputs.sharedFiles.contains(reject.file) {
                reject.file = inputs.originalPaths[reject.file] ?? reject.file
                rejects.append(reject)
            }
            zoneWarnings.formUnion(contribution.zoneWarnings)
            invalidSchemaRows += contribution.invalidSchemaRows
            healthFolderWarnings.formUnion(contribution.healthFolderWarnings)
            failedImports.formUnion(contribution.failedImports)
            pushHealth += contribution.pushHealth
            pushIntents += contribution.pushIntents
            fields.merge(contribution.fields) { first, _ in first }
        }
        for folder in ["reports", "rejects", "snapshots"] + (debug ? ["debug"] : []) {
            try FileManager.default.createDirectory(atPath: path(folder), withIntermediateDirectories: true)
        }
        var jobs: [@Sendable () throws -> [(String, Int, String)]] = PipelineRunner.partitionTables(
            push: inputs.hasPush
        ).filter { inputs.onlyTables?.contains($0.spec.name) ?? true }.map { spec, keyColumns in
            let table = spec
            return { [fields] in
                let merger = SortedTableMerger(
                    fields: fields[table.name] ?? [], keyColumns: keyColumns,
                    monthBlockColumn: table.snapshotMonthColumn)
                let snapshot = "snapshots/\(table.name).parquet"
                let rows = try merger.merge(
                    inputs: inputs.partFolders.map { $0 + "/\(table.name).csv" },
                    report: table.report.map(path), snapshot: path(snapshot),
                    debug: debug ? path("debug/\(table.name).csv") : nil,
                    observe: collector?.observer(table: table.name, fields: fields[table.name] ?? []))
                debugRSS("merged \(table.name)")
                var written = [(snapshot, rows, try SHA256Hasher.hex(file: path(snapshot)))]
                if let report = table.report {
                    written.append((report, rows, try SHA256Hasher.hex(file: path(report))))
                }
                return written
            }
        }
        // The summaries: each partition's counts of a group summed, then
        // written as a whole run writes them.
        let sums = OutputTableSpec.PartitionSums(pushHealth: pushHealth, pushIntents: pushIntents)
        for spec in OutputCatalog.tables(push: inputs.hasPush) {
            guard case .summed(let build) = spec.merge else { continue }
            let table = build(sums)
            jobs.append {
                try PipelineRunner.written(table, spec: spec, in: staging, debug: debug, collector: collector)
            }
        }
        let rejectRows = ReportTables.rejects(rejects)
        jobs.append {
            let rejectsPath = path("rejects/rejects.csv")
            let writer = try CSVReportWriter(path: rejectsPath, header: ReportTables.rejectsHeader)
            for row in rejectRows { try writer.append(row: row) }
            try writer.finish()
            return [("rejects/rejects.csv", writer.rows, writer.sha256 ?? "")]
        }
        debugRSS("partitions done")
        // Merges hold a row group each (tens of MB), far less than a
        // partition's facts, so two run side by side.
        var outputs = try ParallelJobs(jobs).run(oneAtATime: inputs.oneAtATime).flatMap { $0 }
        outputs.sort { bytesLess($0.0, $1.0) }
        debugRSS("merges done")
        var ordered: [FileAccount] = []
        for file in inputs.readingOrder {
            guard var account = accounts[file] else { continue }
            account.sha256 = inputs.digests[file] ?? ""
            ordered.append(account)
        }
        return PartitionedParts(
            accounts: ordered, rejects: rejects,
            warnings: PipelineRunner.warnings(
                invalidSchemaRows: invalidSchemaRows, zoneWarnings: zoneWarnings, accounts: ordered)
                + healthFolderWarnings.sorted(by: bytesLess) + inputs.extraWarnings,
            failedImports: failedImports, outputs: outputs)
    }
}
