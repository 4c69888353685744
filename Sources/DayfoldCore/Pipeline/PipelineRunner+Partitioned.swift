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

    /// Whether a partitioned run's merges go one table at a time: under a
    /// budget below 512 MiB, where two merges' row groups side by side are
    /// a sizeable share of it.
    static func mergesOneAtATime(budget: Int64?) -> Bool { budget.map { $0 < 512 << 20 } ?? false }

    /// Ingests and computes the partition drop `folder` (whose outputs are
    /// those of the users in `owned`; nil: all of its users, a split made by
    /// the export, read and hashed as an ordinary drop), writes its sorted
    /// table parts into `partFolder` and returns what it adds to the merge.
    /// `removeWhenRead`: the folder is the run's own spill, removed once read.
    func computePartition(
        _ folder: String, owned: Set<String>?, into partFolder: String, removeWhenRead: Bool = true
    ) throws -> PartitionContribution {
        // Spill files are not hashed: the manifest's digests are the drop's.
        var partitionLayout = DropLayout.Options(followLinks: owned == nil && followLinks)
        partitionLayout.isPartition = owned != nil
        let drop = try PipelineRunner.ingest(
            input: folder, config: config, asOf: asOf, hashInputs: owned == nil, hashWhileReading: owned == nil,
            reportHeaders: owned == nil, readsPush: !historyOnly, layoutOptions: partitionLayout)
        // The partition's spill is read: removed now, its pages are dropped
        // before the kernel writes them to disk (left until the end, a large
        // drop's spill and partition tables passed the dirty page threshold
        // and the later partitions were written at disk pace).
        if removeWhenRead { try? FileManager.default.removeItem(atPath: folder) }
        debugRSS("partition ingested")
        let result = FactsStage.compute(drop, config: config, asOf: asOf, owned: owned)
        debugRSS("partition computed")
        // The partition's tables are written side by side (they only read
        // its facts), the largest (the events) first.
        let builders: [@Sendable () -> OutputTable] = PipelineRunner.partitionTables(push: result.push != nil)
            .filter { [keptTables] in keptTables?.contains($0.spec.name) ?? true }.map { table in
                { table.spec.build(result) }
            }
        try FileManager.default.createDirectory(atPath: partFolder, withIntermediateDirectories: true)
        let written = try ParallelJobs(
            builders.map { build in
                {
                    let table = build()
                    let path = partFolder + "/\(table.name).csv"
                    let (rows, digest) = try TableWriters.writeCSV(
                        table, to: path, guardFormulas: false, readBack: true)
                    return (table.name, table.fields, (try? SystemCall.status(path).size) ?? -1, rows, digest)
                }
            }
        ).run()
        let users =
            owned.map { $0.filter { !$0.hasPrefix("\u{1}") }.count }
            ?? Set(drop.relationships.map(\.clientUserID)).count
        return PartitionContribution(
            accounts: drop.accounts, rejects: drop.rejects,
            zoneWarnings: drop.userZones.warningsByUser.filter { owned?.contains($0.key) ?? true }.values
                .flatMap { $0 }.sorted(by: bytesLess),
            invalidSchemaRows: drop.invalidSchemaRows, healthFolderWarnings: drop.healthFolderWarnings,
            failedImports: drop.failedImports.sorted(by: bytesLess), pushHealth: result.push?.health ?? [],
            pushIntents: result.push?.intentSummary ?? [],
            fields: Dictionary(written.map { ($0.0, $0.1) }, uniquingKeysWith: { first, _ in first }),
            partSizes: Dictionary(written.map { ($0.0, $0.2) }, uniquingKeysWith: { first, _ in first }),
            partRows: Dictionary(written.map { ($0.0, $0.3) }, uniquingKeysWith: { first, _ in first }),
            partDigests: Dictionary(written.map { ($0.0, $0.4) }, uniquingKeysWith: { first, _ in first }),
            userCount: users)
    }

    /// The tables merged from the partitions' sorted copies: name, sort key
    /// columns, the report it also feeds; the largest first (their merges
    /// start first). With push/ also SPEC §11.3's per-row tables; its two
    /// summaries are sums over partitions, not merges (`PushSummaries.combine`).
    static func partitionTables(push: Bool) -> [(spec: OutputTableSpec, keyColumns: [Int])] {
        OutputCatalog.tables(push: push).compactMap { spec in spec.keyColumns.map { (spec, $0) } }
    }

    struct PartitionedParts {
        var accounts: [FileAccount]
        var rejects: [RejectedRecord]
        var warnings: [String]
        var failedImports: Set<String>
        var outputs: [(String, Int, String)]
        /// With a state: the manifest's `mode`/`reason`/`recomputed_users`,
        /// and what the next state holds.
        var stateUse: Manifest.StateUse?
        var stateFiles: [RunState.FileFacts] = []
        var partitionKeys: [String] = []
    }

    /// `collector`: the HTML report's, which sees the merged tables written.
    func runPartitioned(
        _ layout: DropLayout, partitions: Int, staging: String, state: StateContext? = nil,
        collector: HTMLReportCollector? = nil
    ) throws -> PartitionedParts {
        debugRSS("start")
        // Outputs are written under `staging` (the publisher's staging folder,
        // or an as-of series step's folder inside it).
        let path: @Sendable (String) -> String = { staging + "/" + $0 }
        let spill = path(".spill")
        defer { try? FileManager.default.removeItem(atPath: spill) }
        let options = IngestOptions(
            asOf: asOf.instant, selfSources: Set(config.selfSources), defaultTimezone: config.defaultTimezone)
        let digestPlan = InputDigestPlan(files: layout.allFiles, state: state?.usable, verify: verifyInputs)
        let router = try PartitionRouter(
            layout: layout, options: options, partitions: partitions, root: spill + "/drops",
            stableAssignment: state != nil, hashSpills: state != nil)
        let folders = try router.run()
        let original = router.originalPaths
        trimHeap()
        debugRSS("routed")
        let owned = router.ownedUsers()
        // The union pass hashed the files it read; the others' SHA-256 (the
        // subjects, Apple Health exports) is taken now: partition keys name them.
        let routed = router.digests
        let allFiles = layout.allFiles
        var others: [String: String] = [:]
        let fromState = digestPlan.fromState
        for file in allFiles where routed[file.relativePath] == nil && !fromState.contains(file.relativePath) {
            others[file.relativePath] = (try? SHA256Hasher.hex(file: file.absolutePath)) ?? ""
        }
        let (inputDigests, verified) = digestPlan.combine { index in
            let path = allFiles[index].relativePath
            return (routed[path] ?? others[path]).map { ($0, Int(layout.size(of: path))) }
        }
        var digestOfPath: [String: String] = [:]
        for (file, digest) in zip(allFiles, inputDigests) { digestOfPath[file.relativePath] = digest?.digest ?? "" }
        let store = state.map { PartitionStore(state: $0.directory) }
        let keys: [String]? = state.map { _ in
            folders.indices.map { index in
                PartitionKey.of(
                    PartitionKey.Inputs(
                        index: index, count: folders.count, configDigest: config.digest, asOf: asOf,
                        ownedUsers: Array(owned[index]), spills: router.spillDigests[index],
                        linked: Dictionary(
                            router.linkedFiles[index].map { ($0, digestOfPath[$0] ?? "") },
                            uniquingKeysWith: { first, _ in first })))
            }
        }
        // Files every partition reads whole: accounted and rejected once.
        let subjects = Set(PartitionRouter.sharedFiles(layout).map(\.relativePath))
        var contributions: [PartitionContribution] = []
        var partFolders: [String] = []
        var reusedPartitions = 0
        var recomputedUsers = 0
        for (index, folder) in folders.enumerated() {
            defer { trimHeap() }
            if case .usable = state?.loaded, let key = keys?[index], let stored = store?.stored(key), let store {
                contributions.append(stored)
                partFolders.append(store.path(key))
                reusedPartitions += 1
                try? FileManager.default.removeItem(atPath: folder)
                continue
            }
            let partFolder = try keys.map { try store?.begin($0[index]) ?? "" } ?? spill + "/out-\(index)"
            let contribution = try computePartition(folder, owned: owned[index], into: partFolder)
            recomputedUsers += contribution.userCount
            if let key = keys?[index], let store {
                partFolders.append(try store.commit(key, contribution, from: partFolder))
            } else {
                partFolders.append(partFolder)
            }
            contributions.append(contribution)
        }
        var parts = try PipelineRunner.mergePartitions(
            PartitionMerge(
                contributions: contributions, partFolders: partFolders, originalPaths: original,
                sharedFiles: subjects, readingOrder: layout.readingOrder.map(\.relativePath), digests: digestOfPath,
                hasPush: layout.hasPushFolder && !historyOnly, extraWarnings: verified,
                oneAtATime: PipelineRunner.mergesOneAtATime(budget: config.maxMemory.flatMap(parseByteSize)),
                onlyTables: keptTables),
            staging: staging, debug: debugTables, collector: collector)
        if let state {
            let reused =
                reusedPartitions == 0
                ? nil
                : "\(reusedPartitions) of \(folders.count) partitions reused from the state "
                    + "(their inputs, the pipeline and the as-of are unchanged)"
            let fullBecause =
                state.usable.map { $0.asOf != asOf.instant }
                    == true
                ? "the as-of moved since the state was written (\(state.usable?.asOf.description ?? "") → "
                    + "\(asOf.instant.description)), so every partition is recomputed"
                : "every partition's inputs changed since the state was written"
            parts.stateUse = state.use(
                recomputedUsers: recomputedUsers, digestsFromState: digestPlan.fromState, reused: reused,
                fullBecause: fullBecause)
            parts.stateFiles = digestPlan.stateFiles(inputDigests)
            parts.partitionKeys = keys ?? []
        }
        return parts
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
