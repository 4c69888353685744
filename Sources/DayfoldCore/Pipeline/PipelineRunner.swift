import Foundation
import Synchronization

/// The run: ingest → normalize and compute → write → publish, with timings.
public struct PipelineRunner {
    public var config: PipelineConfig
    public var input: String
    public var output: String
    public var asOf: ParsedInstant
    /// Also write every snapshot table as CSV under `debug/` (for checks).
    public var debugTables = false
    /// Per-stage progress on stderr (for a terminal).
    public var showProgress = false
    /// Leave the run's tables to the end of the process (for a command that
    /// exits right after): freeing millions of rows one allocation at a time
    /// took 0.1–0.2 s on a 1 GB drop, while the exit drops them whole. (How
    /// the heap treats freed memory is the executable's choice:
    /// `ProcessTuning`, after `memoryProfile(_:)`.)
    public var keepMemoryUntilExit = false
    /// Follow symbolic links whatever their target (`--follow-links`, SPEC §10).
    public var followLinks = false
    /// `--as-of-series`: also publish `history/` for each step (SPEC §12);
    /// its last step is `asOf`.
    public var asOfSeries: AsOfSeries?
    /// True for an as-of series' earlier steps under a budget: only their
    /// history tables are kept, so the partitions read no push file (see
    /// `IngestOptions.readsPush`) and only those tables are built and merged.
    var historyOnly = false
    /// The tables a partitioned run builds and merges (nil: all of them).
    var keptTables: Set<String>? { historyOnly ? Set(AsOfSeries.tables) : nil }
    /// `--state DIR` (pipeline key `state`, SPEC §12): what the next run may reuse.
    public var statePath: String?
    /// `--verify-inputs`: hash every input even where the state knows its digest.
    public var verifyInputs = false
    /// `--presplit K/N`: the drop is split K of N that the export made by
    /// user (SPEC §13): run as a shard, for `dayfold merge`.
    public var presplit: (shard: Int, shards: Int)?
    /// `--html` (pipeline key `html`, SPEC §14): also publish `report/`.
    public var html = false
    /// The largest page of the report in bytes (tests split pages with a smaller one).
    var htmlPageLimit = HTMLReport.pageLimit

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
        /// The manifest's warnings (and the publish's own, if any), for the
        /// operator's stderr summary and `--strict` (SPEC §10).
        public var warnings: [String] = []
        /// Users whose health import failed (the manifest's `failed_imports`).
        public var failedImports: [String] = []
        /// Files of the drop that were not read (the manifest's
        /// `unrecognized_files`).
        public var unrecognizedFiles = 0
    }

    /// Reads the drop; `retainRows: false` only decides and counts (for `validate`).
    /// `reportHeaders`: the headers' notices go to stderr once it is read
    /// (`HeaderNotices`; a partition's reading leaves them to the whole run).
    public static func ingest(
        input: String, config: PipelineConfig, asOf: ParsedInstant, retainRows: Bool = true, showProgress: Bool = false,
        hashInputs: Bool = true, hashWhileReading: Bool = true, reportHeaders: Bool = true,
        readsPush: Bool = true, keepsAsOfCandidates: Bool = false, clientInputs: Handover<IngestedDrop>? = nil,
        taskInputs: Handover<IngestedDrop>? = nil, layoutOptions: DropLayout.Options = .init()
    ) throws -> IngestedDrop {
        try ingest(
            input: input, config: config, asOf: asOf, retainRows: retainRows, showProgress: showProgress,
            hashInputs: hashInputs, hashWhileReading: hashWhileReading, reportHeaders: reportHeaders,
            readsPush: readsPush, keepsAsOfCandidates: keepsAsOfCandidates, clientInputs: clientInputs,
            taskInputs: taskInputs, layoutOptions: layoutOptions, keepsReadingTables: false, resuming: nil)
    }

    /// `ingest`, keeping the tables a later reading resumes from
    /// (`keepsReadingTables`), or resuming a kept reading (`resuming`: only
    /// the task kinds' new files are read; `ResumeRefusal` when a new file
    /// would change a kept decision).
    static func ingest(
        input: String, config: PipelineConfig, asOf: ParsedInstant, retainRows: Bool = true, showProgress: Bool = false,
        hashInputs: Bool = true, hashWhileReading: Bool = true, reportHeaders: Bool = true,
        readsPush: Bool = true, keepsAsOfCandidates: Bool = false, clientInputs: Handover<IngestedDrop>? = nil,
        taskInputs: Handover<IngestedDrop>? = nil, layoutOptions: DropLayout.Options = .init(),
        keepsReadingTables: Bool, resuming: ReadingResumption?
    ) throws -> IngestedDrop {
        var layout = try DropLayout(root: input, options: layoutOptions)
        // A resumed reading reads only the task kinds' new files (`ResumeRefusal` when it cannot).
        if let resuming { layout = try layout.resumed(from: resuming) }
        let progress = ProgressReporter(enabled: showProgress, totalBytes: showProgress ? layout.totalBytes : 0)
        progress.begin("ingest")
        // Written once the progress line is done (a notice must not land in its middle).
        var noticeAccounts: [FileAccount]?
        defer {
            progress.finish()
            if let noticeAccounts { HeaderNotices.report(noticeAccounts) }
        }
        var options = IngestOptions(
            asOf: asOf.instant, selfSources: Set(config.selfSources), defaultTimezone: config.defaultTimezone)
        options.retainRows = retainRows
        options.hashWhileReading = hashWhileReading
        options.readsPush = readsPush
        options.keepsAsOfCandidates = keepsAsOfCandidates
        options.progress = progress
        options.clientInputs = clientInputs
        options.taskInputs = taskInputs
        options.keepsReadingTables = keepsReadingTables
        let ingestor = DropIngestor(layout: layout, options: options, zones: resuming?.zones ?? ZoneCatalog())
        ingestor.resumption = resuming
        var drop = try ingestor.ingest()
        drop.unrecognizedFiles = layout.unrecognizedFiles
        if reportHeaders { noticeAccounts = drop.accounts }
        // CSV files were hashed as they were read; other files (SQLite, XML) are hashed here.
        for index in drop.accounts.indices where hashInputs && drop.accounts[index].sha256.isEmpty {
            let relative = drop.accounts[index].path
            drop.accounts[index].sha256 =
                (try? SHA256Hasher.hex(file: (input as NSString).appendingPathComponent(relative))) ?? ""
        }
        return drop
    }

    /// The kept reading handed over as `ingest` hands over a reading: the
    /// client side's inputs, then the task side's (without push rows, as
    /// ingest hands them over before push/ is read), with the header
    /// notices a reading of the files would print.
    static func handOver(
        _ drop: IngestedDrop, client: Handover<IngestedDrop>, tasks: Handover<IngestedDrop>, showProgress: Bool
    ) -> IngestedDrop {
        let progress = ProgressReporter(enabled: showProgress, totalBytes: 1)
        progress.begin("ingest (the kept reading)")
        deliver(drop, client: client, tasks: tasks)
        progress.finish()
        HeaderNotices.report(drop.accounts)
        return drop
    }

    /// Hands a whole reading to the client side and the task side (without
    /// push rows, as ingest hands them over before push/ is read).
    static func deliver(_ drop: IngestedDrop, client: Handover<IngestedDrop>, tasks: Handover<IngestedDrop>) {
        client(drop)
        var taskSide = drop
        taskSide.push = nil
        taskSide.notificationPreferences = [:]
        tasks(taskSide)
    }

    /// The manifest's `mode` and `reason` of a whole run with a state: what
    /// of the previous run it reused (the kept reading, copied month
    /// blocks), or why it is a full run.
    static func stateUse(
        _ state: StateContext, recomputedUsers: Int, digestsFromState: Set<String>, reading: ReadingKeeping?,
        copied: String?
    ) -> Manifest.StateUse {
        let readingText = reading?.text ?? "the drop is read whole"
        let reused =
            reading?.reused == true || copied != nil
            ? ([readingText + " and every user recomputed"] + (copied.map { [$0] } ?? [])).joined(separator: "; ")
            : nil
        return state.use(
            recomputedUsers: recomputedUsers, digestsFromState: digestsFromState, reused: reused,
            fullBecause: readingText + ", so every user is recomputed "
                + "(runs under max_memory reuse the partitions whose inputs and as-of are unchanged)")
    }

    /// The accounts with their files' SHA-256 from `FileDigests`, and a
    /// warning for each CSV file whose size when hashed is not the size
    /// ingest read: the file changed during the run, so its digest may not
    /// be of the rows read. (Hashed while read, a file changing under the run
    /// went unnoticed.)
    static func digested(
        _ accounts: [FileAccount], files: [DropLayout.File], digests: [(digest: String, size: Int)?]
    ) -> (accounts: [FileAccount], warnings: [String]) {
        var hashed: [String: (digest: String, size: Int)] = [:]
        for (file, digest) in zip(files, digests) { hashed[file.relativePath] = digest }
        var accounts = accounts
        var warnings: [String] = []
        for index in accounts.indices where accounts[index].sha256.isEmpty {
            guard let file = hashed[accounts[index].path] else { continue }
            accounts[index].sha256 = file.digest
            if let read = accounts[index].bytesRead, read != file.size {
                warnings.append(
                    "input changed while the run read it: \(accounts[index].path) (read \(read) bytes, "
                        + "hashed \(file.size)); run again once the drop is no longer being written")
            }
        }
        return (accounts, warnings)
    }

    /// The manifest's warnings, in a fixed order.
    static func warnings(invalidSchemaRows: Int, zoneWarnings: Set<String>, accounts: [FileAccount] = []) -> [String] {
        (invalidSchemaRows > 0 ? ["invalid JSON in action_schema read as {}: \(invalidSchemaRows) rows"] : [])
            + zoneWarnings.sorted() + HeaderNotices.warnings(accounts)
    }

    /// How a run of this drop uses memory, for the process-wide heap
    /// settings the executable chooses (`ProcessTuning`) before `run()`.
    public enum MemoryProfile: Sendable, Equatable {
        /// The whole drop at once, in a process that exits after the run.
        case wholeUntilExit
        /// The whole drop at once, in a process that goes on after it.
        case whole
        /// Partition by partition under `max_memory`: memory must follow what is live.
        case partitioned(Int)
    }

    /// The memory profile of a run over `layout` (the drop's layout with
    /// this runner's `followLinks`): `run()` takes the same path.
    public func memoryProfile(_ layout: DropLayout) -> MemoryProfile {
        let partitions = PipelineRunner.partitionCount(layout, budget: config.maxMemory.flatMap(parseByteSize))
        if partitions > 1 && PartitionRouter.canPartition(layout) { return .partitioned(partitions) }
        return keepMemoryUntilExit && config.maxMemory == nil ? .wholeUntilExit : .whole
    }

    public func run() throws -> Outcome {
        // The output is checked before the drop is read (SPEC §10): a
        // refused output costs nothing and changes nothing.
        let target = try OutputTarget(output: output, drop: input)
        let layout = try DropLayout(root: input, options: DropLayout.Options(followLinks: followLinks))
        let state = try statePath.map { path in
            let directory = try StateDirectory(path: path, drop: input, output: target.destination)
            return StateContext(directory: directory, loaded: directory.load(configDigest: config.digest))
        }
        // Only a series reads its tables often enough to repay 2 MB pages (`HugePages.advising`).
        HugePages.advising.store(asOfSeries != nil, ordering: .relaxed)
        let found = try ShardMarker.read(drop: input)
        if found != nil, presplit != nil {
            throw DayfoldError(
                .usage, "\(input) is a shard of dayfold shard already; --presplit is for splits the export made",
                fix: "run it without --presplit")
        }
        if let marker = found
            ?? presplit.map({ ShardMarker.presplit(shard: $0.shard, of: $0.shards, folder: input, layout: layout) })
        {
            guard asOfSeries == nil, statePath == nil else {
                throw DayfoldError(
                    .usage, "\(input) is a shard: run it with --as-of only (no --as-of-series or --state)",
                    fix: "run each shard with the same pipeline and --as-of, then dayfold merge")
            }
            return try runShard(marker, target: target)
        }
        var outcome: Outcome
        if let series = asOfSeries {
            guard series.steps.last?.instant == asOf.instant else {
                preconditionFailure("an as-of series ends at the run's as-of")
            }
        }
        if case .partitioned(let partitions) = memoryProfile(layout) {
            outcome = try runWithPartitions(layout, partitions: partitions, target: target, state: state)
        } else {
            outcome = try runWhole(layout, target: target, state: state)
        }
        outcome.unrecognizedFiles = layout.unrecognizedFiles.count
        return outcome
    }

    /// Under a memory budget smaller than the drop: partition, then merge.
    private func runWithPartitions(
        _ layout: DropLayout, partitions: Int, target: OutputTarget, state: StateContext?
    ) throws -> Outcome {
        let started = Date()
        let stages = ProgressReporter(enabled: showProgress, totalBytes: 1)
        stages.begin("partitioned run (\(partitions) partitions)")
        defer { stages.finish() }
        let publisher = try OutputPublisher(target: target)
        var parts: PartitionedParts
        var publishWarnings: [String] = []
        do {
            var history: [(String, Int, String)] = []
            if let series = asOfSeries {
                history = try writePartitionedHistory(
                    layout, partitions: partitions, steps: Array(series.steps.dropLast()), publisher: publisher)
            }
            let collector = html ? HTMLReportCollector(asOf: asOf.instant) : nil
            parts = try runPartitioned(
                layout, partitions: partitions, staging: publisher.staging, state: state, collector: collector)
            parts.outputs += try copyLastStep(parts.outputs, publisher: publisher) + history
            var timings: [(String, Double)] = []
            if let collector {
                // Timed alone, as in a whole run.
                let reportStarted = Date()
                let summary = HTMLRunSummary(
                    pipeline: config.name, asOf: asOf.instant, inputs: parts.accounts, warnings: parts.warnings,
                    failedImports: parts.failedImports.sorted(by: bytesLess), rejects: parts.rejects)
                parts.outputs += try HTMLReport.write(
                    summary, rows: collector.collected, into: publisher.staging, pageLimit: htmlPageLimit)
                timings.append(("report", Date().timeIntervalSince(reportStarted)))
            }
            parts.outputs.sort { bytesLess($0.0, $1.0) }
            HeaderNotices.report(parts.accounts)
            timings.insert(("partitioned run", Date().timeIntervalSince(started)), at: 0)
            var manifest = Manifest(
                pipelineName: config.name, configDigest: config.digest, asOf: asOf.instant, inputs: parts.accounts,
                outputs: parts.outputs, warnings: parts.warnings,
                failedImports: parts.failedImports.sorted(by: bytesLess), timings: timings,
                unrecognizedFiles: layout.unrecognizedFiles)
            manifest.hasPushFolder = layout.hasPushFolder
            manifest.stateUse = parts.stateUse
            try Data(manifest.json().utf8).write(to: URL(fileURLWithPath: publisher.path("manifest.json")))
            publishWarnings = try publisher.publish()
        } catch {
            throw PipelineRunner.writeFailure(error, publisher)
        }
        publishWarnings += saveState(state, files: parts.stateFiles, partitionKeys: parts.partitionKeys)
        var outcome = outcome(
            read: parts.accounts.reduce(0) { $0 + $1.rowsRead },
            rejected: parts.accounts.reduce(0) { $0 + $1.rejected },
            publisher: publisher)
        outcome.warnings = parts.warnings + publishWarnings
        outcome.failedImports = parts.failedImports.sorted(by: bytesLess)
        return outcome
    }

    private func runWhole(_ layout: DropLayout, target: OutputTarget, state: StateContext?) throws -> Outcome {
        var timings: [(String, Double)] = []
        let config = config
        let asOf = asOf
        let debugTables = debugTables
        let inputFiles = layout.allFiles
        let digestPlan = InputDigestPlan(files: inputFiles, state: state?.usable, verify: verifyInputs)
        let hashPaths = digestPlan.pathsToHash
        // With a state, a whole run reads the kept reading instead of the
        // drop where it holds, and keeps its own when its files are the
        // state's (a series reads its own way, `AsOfCandidates`, and keeps none).
        let reading =
            asOfSeries == nil
            ? state.map {
                ReadingKeeping(
                    state: $0, files: inputFiles, digests: digestPlan, verify: verifyInputs, asOf: asOf.instant)
            } : nil
        // A run that fails leaves the state folder as it was.
        defer { reading?.discardUncommitted() }
        // The staging folder exists from the start: every stage writes into it.
        let publisher = try OutputPublisher(target: target)
        let started = Date()
        do {
            for folder in ["reports", "rejects", "snapshots"] + (debugTables ? ["debug"] : []) {
                try FileManager.default.createDirectory(
                    atPath: publisher.path(folder), withIntermediateDirectories: true)
            }
        } catch {
            publisher.abandon()
            throw error
        }
        let stages = ProgressReporter(enabled: showProgress, totalBytes: 1)
        defer { stages.finish() }
        let plan = StagePlan(keepingValuesUntilExit: keepMemoryUntilExit)
        let declared = declareWholeRun(
            plan, hashPaths: hashPaths, publisher: publisher, stages: stages, state: state, reading: reading)
        plan.run()
        // Every stage that writes into the staging folder is waited for
        // before any error is thrown (it is removed on the way out); an
        // error of ingest is the input's, the others are the writing's.
        // With a series, the run's own outputs come through its steps' stage, which waits for them.
        let history = declared.history?.result()
        let outputs = history?.map(\.written) ?? declared.outputs.result()
        let events = declared.events.result()
        // The write lap ends with the run's own outputs: the series' steps are timed on their own.
        let writtenAt = declared.outputs.finishedAt ?? Date()
        let keepWarnings = (try? declared.kept?.result().get()) ?? []
        if let error = declared.ingested.failure {
            publisher.abandon()
            throw error
        }
        var publishWarnings: [String] = []
        var stateFiles: [RunState.FileFacts] = []
        var snapshotBlocks: [String: SnapshotBlocks] = [:]
        let warnings: [String]
        let drop: IngestedDrop
        do {
            let (facts, tables) = try outputs.get()
            drop = facts.result.drop
            let clock = [started, declared.ingested.finishedAt, declared.facts.finishedAt, writtenAt].map {
                $0 ?? started
            }
            timings += zip(["ingest", "compute", "write"], zip(clock, clock.dropFirst())).map {
                ($0, $1.1.timeIntervalSince($1.0))
            }
            var outputs = try tables + [events.get()]
            if let history {
                outputs += try history.get().outputs
                timings.append(("history", try history.get().seconds))
            }
            outputs += try copyLastStep(outputs, publisher: publisher)
            outputs.sort { bytesLess($0.0, $1.0) }
            var runWarnings = facts.warnings
            let (digests, verified) = digestPlan.combine(try declared.digests.result().get())
            let (hashedInputs, changed) = PipelineRunner.digested(drop.accounts, files: inputFiles, digests: digests)
            runWarnings += verified + changed
            warnings = runWarnings
            if let collector = declared.collector {
                // Timed alone: the laps before it include the wait for the input digests.
                let reportStarted = Date()
                let summary = HTMLRunSummary(
                    pipeline: config.name, asOf: asOf.instant, inputs: hashedInputs, warnings: warnings,
                    failedImports: drop.failedImports.sorted(by: bytesLess), rejects: drop.rejects)
                outputs += try HTMLReport.write(
                    summary, rows: collector.collected, into: publisher.staging, pageLimit: htmlPageLimit)
                outputs.sort { bytesLess($0.0, $1.0) }
                timings.append(("report", Date().timeIntervalSince(reportStarted)))
            }
            var manifest = Manifest(
                pipelineName: config.name, configDigest: config.digest, asOf: asOf.instant, inputs: hashedInputs,
                outputs: outputs, warnings: warnings,
                failedImports: drop.failedImports.sorted(by: bytesLess),
                timings: timings, unrecognizedFiles: drop.unrecognizedFiles)
            manifest.hasPushFolder = layout.hasPushFolder
            manifest.stateUse = state.map {
                PipelineRunner.stateUse(
                    $0, recomputedUsers: facts.userCount, digestsFromState: digestPlan.fromState, reading: reading,
                    copied: declared.blocks?.copiedText)
            }
            snapshotBlocks = declared.blocks?.recorded ?? [:]
            try Data(manifest.json().utf8).write(to: URL(fileURLWithPath: publisher.path("manifest.json")))
            publishWarnings = try publisher.publish()
            stateFiles = digestPlan.stateFiles(digests)
        } catch {
            throw PipelineRunner.writeFailure(error, publisher)
        }
        publishWarnings += keepWarnings
        publishWarnings += saveState(
            state, files: stateFiles, snapshotBlocks: snapshotBlocks, reading: reading?.commit())
        var outcome = outcome(read: drop.rowsRead, rejected: drop.rowsRejected, publisher: publisher)
        outcome.warnings = warnings + publishWarnings
        outcome.failedImports = drop.failedImports.sorted(by: bytesLess)
        return outcome
    }

    /// The stages of a whole run whose values the run reads at the end.
    private struct WholeRunStages {
        var ingested: Stage<IngestedDrop>
        var facts: Stage<WholeRunFacts>
        /// The facts again, with the outputs written from them (path, rows, SHA-256).
        var outputs: Stage<(WholeRunFacts, [(String, Int, String)])>
        /// The event snapshot, written from the task outcomes alone.
        var events: Stage<(String, Int, String)>
        var digests: Stage<[(digest: String, size: Int)?]>
        var collector: HTMLReportCollector?
        /// With a state: the snapshots written in blocks (their blocks, what was copied).
        var blocks: SnapshotBlockKeeping?
        /// With a state: the reading kept for the next run (its warnings).
        var kept: Stage<[String]>?
        /// An as-of series' earlier steps, written from the run's own reading
        /// once the run's outputs are: those outputs again (the caller's
        /// read of them), and the steps' with the time they took.
        var history: Stage<HistoryWritten>?
    }

    /// What an as-of series' stage passes on (see `WholeRunStages.history`).
    private struct HistoryWritten: Sendable {
        var written: (WholeRunFacts, [(String, Int, String)])
        var outputs: [(String, Int, String)]
        var seconds: Double
    }

    /// What a whole run's facts stage passes on.
    private struct WholeRunFacts: Sendable {
        /// The facts, whose drop no longer holds the rows they were computed from.
        var result: RunResult
        /// The users the run computed (for the state's record).
        var userCount: Int
        /// The manifest's warnings known once the facts are.
        var warnings: [String]
    }

    /// Declares a whole run's stages: every input's digest (idle, beside
    /// everything), ingest, the client side on the inputs ingest hands over
    /// before it reads status events, the outcomes and the days of activity
    /// beside each other, the event snapshot from the outcomes alone, the
    /// rest of the facts, and the writing of every other output from them.
    private func declareWholeRun(
        _ plan: StagePlan, hashPaths: [String], publisher: OutputPublisher, stages: ProgressReporter,
        state: StateContext?, reading: ReadingKeeping?
    ) -> WholeRunStages {
        let staging = publisher.staging
        let (config, asOf, input, debugTables) = (config, asOf, input, debugTables)
        let (showProgress, followLinks) = (showProgress, followLinks)
        // The series' steps before the run's own as-of (none: no series stage).
        let series = asOfSeries.flatMap { $0.steps.count > 1 ? Array($0.steps.dropLast()) : nil }
        // Every input's SHA-256 is taken on a thread of its own, two files at
        // a time, beside the whole run (see `FileDigests`); with a state,
        // only those of files it does not know.
        let digests = plan.stage("input digests", idle: true) { FileDigests.hex(of: hashPaths) }
        let clientInputs = plan.handover("client inputs", of: IngestedDrop.self)
        let taskInputs = plan.handover("task inputs", of: IngestedDrop.self)
        let ingested = plan.stage("ingest", handingOver: clientInputs, taskInputs) { client, tasks in
            debugRSS("ingest: start")
            defer { reading?.ingestEnded() }
            if let kept = reading?.readKept() {
                return PipelineRunner.handOver(kept, client: client, tasks: tasks, showProgress: showProgress)
            }
            func read(resuming: ReadingResumption?) throws -> IngestedDrop {
                // A resumed reading hands nothing over before it is whole: a
                // refusal (push's come last) leaves the sides to the whole reading.
                try PipelineRunner.ingest(
                    input: input, config: config, asOf: asOf, showProgress: showProgress, hashInputs: false,
                    hashWhileReading: false, keepsAsOfCandidates: series != nil,
                    clientInputs: resuming == nil ? client : nil, taskInputs: resuming == nil ? tasks : nil,
                    layoutOptions: DropLayout.Options(followLinks: followLinks),
                    keepsReadingTables: reading?.mayKeep ?? false, resuming: resuming)
            }
            // A kept reading with only new files beside its own is resumed:
            // only the new files are read. On a refusal the drop is read whole.
            if let reading, let resumption = reading.readResumable() {
                debugRSS("ingest: kept reading read back")
                do {
                    var drop = try read(resuming: resumption)
                    reading.noteResumed()
                    // The tables go to the keeping alone, not to every side.
                    reading.hold(&drop)
                    PipelineRunner.deliver(drop, client: client, tasks: tasks)
                    return drop
                } catch let refusal as ResumeRefusal {
                    reading.noteRefused(refusal.reason)
                }
            }
            var drop = try read(resuming: nil)
            reading?.hold(&drop)
            return drop
        }
        let kept = reading.map { keeping in plan.stage("keep reading") { keeping.keep() } }
        let client = plan.stage("client facts", after: clientInputs) {
            FactsStage.clientSide($0, config: config, asOf: asOf)
        }
        // The outcomes, the days of activity and the event snapshot need no
        // push row: they start on the task inputs, while push/ is still read.
        let outcomes = plan.stage("outcomes", after: taskInputs) { drop in
            stages.begin("compute")
            // From here on the facts and the writing, with the event snapshot
            // beside them, keep both cores busy: left in the idle class, what
            // is left of the digests would only run once they are done, alone.
            digests.prioritize()
            return TaskOutcomeCalculator.outcomes(drop, asOf: asOf.instant)
        }
        let activity = plan.stage("activity days", after: taskInputs) { FactsStage.activityDays($0) }
        // The event snapshot reads tasks and their ids, not the rows behind
        // the outcomes: its copy of the drop does not keep those alive.
        let tasks = plan.stage("tasks", after: taskInputs) { $0.withoutFactInputs() }
        // With a state, the month blocks of the snapshots laid out in them
        // are recorded for the next run, and those the previous run's files
        // hold unchanged are copied from them.
        let blocks = state.map { SnapshotBlockKeeping(previous: $0.usable, published: publisher.destination) }
        let events = plan.stage("event snapshot", after: tasks, outcomes) { tasks, outcomes in
            let table = ReportTables.adherenceEvents(tasks, outcomes: outcomes, owned: nil)
            if let written = try blocks?.write("adherence_events", table, in: staging, debug: debugTables) {
                return written
            }
            return try PipelineRunner.writeSnapshot("adherence_events", table, in: staging, debug: debugTables)
        }
        let facts = plan.stage("facts", after: ingested, outcomes, client, activity) {
            drop, outcomes, client, activity in
            let result = FactsStage.facts(
                drop, outcomes: outcomes, client: client, activity: activity, config: config, asOf: asOf)
            var warnings = PipelineRunner.warnings(
                invalidSchemaRows: drop.invalidSchemaRows, zoneWarnings: result.drop.userZones.warnings,
                accounts: drop.accounts)
            warnings += drop.healthFolderWarnings
            // The writers' memory comes from the rows the facts were computed from.
            var slim = result
            slim.drop = result.drop.withoutFactInputs()
            return WholeRunFacts(result: slim, userCount: drop.userCount, warnings: warnings)
        }
        // The report's collector sees the row groups of the tables it shows as they are written.
        let collector = html ? HTMLReportCollector(asOf: asOf.instant) : nil
        let outputs = plan.stage("write", after: facts) { facts in
            stages.begin("write")
            let result = facts.result
            let rejectRows = ReportTables.rejects(result.drop.rejects)
            /// A job writes one output or more: each one's path, rows and SHA-256.
            typealias Job = @Sendable () throws -> [(String, Int, String)]
            // Tables are built inside the jobs, so their sorting runs in
            // parallel too; jobs are taken in the catalog's order (the
            // largest first) by whichever core is free.
            var jobs: [Job] = OutputCatalog.tables(push: result.push != nil).filter { !$0.fromOutcomes }.map { spec in
                {
                    let written = try PipelineRunner.written(
                        spec.build(result), spec: spec, in: staging, debug: debugTables, collector: collector,
                        blocks: blocks)
                    debugRSS("write: \(spec.name)")
                    return written
                }
            }
            jobs.append {
                let path = publisher.path("rejects/rejects.csv")
                let rejects = try CSVReportWriter(path: path, header: ReportTables.rejectsHeader)
                for row in rejectRows { try rejects.append(row: row) }
                try rejects.finish()
                return [("rejects/rejects.csv", rejects.rows, rejects.sha256 ?? "")]
            }
            return (facts, try ParallelJobs(jobs).run().flatMap { $0 })
        }
        // An as-of series' earlier steps are derived from this same reading
        // (SPEC §12: one pass over the inputs), once the run's own outputs
        // are written: beside them, the steps' facts and the writers'
        // buffers would be in memory together (1.34 GB against 1.25 GB on
        // the 1.1 GB benchmark drop, 11 steps).
        let history = series.map { steps in
            plan.stage("as-of series", after: ingested, outputs) { drop, written in
                let started = Date()
                let outputs = try PipelineRunner.writeHistory(
                    drop, steps: steps, config: config, publisher: publisher)
                return HistoryWritten(written: written, outputs: outputs, seconds: Date().timeIntervalSince(started))
            }
        }
        return WholeRunStages(
            ingested: ingested, facts: facts, outputs: outputs, events: events, digests: digests,
            collector: collector, blocks: blocks, kept: kept, history: history)
    }

    /// Replaces the state once the outputs are published; a failure is a
    /// warning (the outputs stand, and the previous state is still whole).
    private func saveState(
        _ state: StateContext?, files: [RunState.FileFacts], partitionKeys: [String] = [],
        snapshotBlocks: [String: SnapshotBlocks] = [:], reading: RunState.Reading? = nil
    ) -> [String] {
        guard let state else { return [] }
        do {
            try state.directory.save(
                RunState(
                    configDigest: config.digest, pipeline: config.name, asOf: asOf.instant, files: files,
                    partitionKeys: partitionKeys,
                    build: snapshotBlocks.isEmpty && reading == nil ? "" : RunState.currentBuild,
                    snapshotBlocks: snapshotBlocks, reading: reading))
            // Partitions and readings only the replaced state named are no longer needed.
            PartitionStore(state: state.directory).removeUnreferenced(keeping: Set(partitionKeys))
            ReadingKeeping.removeUnreferenced(in: state.directory, keeping: reading)
            return []
        } catch {
            let text = (error as? DayfoldError)?.message ?? "\(error)"
            return ["\(text); the next run with this state reads every input again"]
        }
    }

    /// The series' steps before the run's own as-of, from the run's own
    /// ingest (`drop`, as of the series' last step, with
    /// `IngestOptions.keepsAsOfCandidates`): the rows an earlier as-of
    /// decides otherwise were kept (`AsOfCandidates`), each step's drop is
    /// derived from them (`AsOfSteps`), and its facts computed and history
    /// tables written, as that step's plain run writes its snapshots.
    ///
    /// Three chains run side by side: this thread carries the task side
    /// of each step, the client side of each is carried on a thread of its
    /// own (`SeriesSteps.begun`), and a step's last facts (streaks, signals)
    /// and tables are computed and written on a third once both sides are
    /// there. The carry is taken in order and the rest only reads a
    /// finished step's facts, so they overlap (half a step's time was
    /// signals and writing; waiting for each step's client side before the
    /// next left a core idle a fifth of the time). A step waits for the
    /// writing of the step two before it, so at most three steps' facts are
    /// in memory.
    private static func writeHistory(
        _ drop: IngestedDrop, steps: [ParsedInstant], config: PipelineConfig, publisher: OutputPublisher
    ) throws -> [(String, Int, String)] {
        guard let first = steps.first else { return [] }
        var series = SeriesSteps(drop, from: first.instant, config: config)
        // The last steps' writing, each a link of a chain: a step's writing
        // takes the month blocks of `relationship_days` (`MonthBlockChunks`)
        // and the outputs of the one before's.
        var writing: [BackgroundValue<Result<HistoryStepWritten, DayfoldError>>] = []
        for step in steps {
            // A step is carried in the spares of the step two before
            // (`StepTaskFacts`, `StepHealthDays`): once its facts are written,
            // no one holds them, and they are brought up to date in place.
            if writing.count >= 2 { writing[writing.count - 2].waitUntilDone() }
            let pending = series.begun(asOf: step, keepingClientTables: false)
            let before = writing.last
            writing.append(
                BackgroundValue {
                    let carried = pending.finished()
                    // The signals (a tenth of a step's work) beside the other
                    // tables: this thread is the series' longest chain.
                    let signals = BackgroundValue { carried.signals() }
                    let facts = carried.facts(withSignals: false)
                    do throws(DayfoldError) {
                        let earlier = try before?.value().get() ?? HistoryStepWritten(outputs: [], months: nil)
                        let written = try writeHistoryStep(
                            facts, signals: signals, step: step, publisher: publisher, months: earlier.months)
                        return .success(
                            HistoryStepWritten(outputs: earlier.outputs + written.outputs, months: written.months))
                    } catch {
                        return .failure(error)
                    }
                })
            if writing.count > 2 { writing.removeFirst() }
        }
        return try writing.last?.value().get().outputs ?? []
    }

    /// A series step's history tables, and its `relationship_days`' month
    /// blocks for the next step.
    private struct HistoryStepWritten: Sendable {
        var outputs: [(String, Int, String)]
        var months: MonthBlockChunks?
    }

    /// One step's history tables, written as that step's plain run writes
    /// its snapshots. Returns their paths, rows and SHA-256, in the
    /// catalog's order. `result` comes without its risk signals, which
    /// `signals` computes meanwhile: the tables built from them are written
    /// last. `months`: the step before's `relationship_days` month blocks.
    private static func writeHistoryStep(
        _ result: RunResult, signals: BackgroundValue<[RiskSignal]>, step: ParsedInstant,
        publisher: OutputPublisher, months: MonthBlockChunks?
    ) throws(DayfoldError) -> HistoryStepWritten {
        var result = result
        var written = HistoryStepWritten(outputs: [], months: nil)
        var outputs = [(String, Int, String)?](repeating: nil, count: OutputCatalog.history.count)
        func write(_ index: Int) throws(DayfoldError) {
            let spec = OutputCatalog.history[index]
            let path = AsOfSeries.path(table: spec.name, step: step)
            do {
                try FileManager.default.createDirectory(
                    atPath: (publisher.path(path) as NSString).deletingLastPathComponent,
                    withIntermediateDirectories: true)
                if spec.snapshotMonthColumn != nil {
                    // The month-block table (`relationship_days`): its unchanged
                    // months are the step before's chunks.
                    let (rows, digest, chunks) = try MonthBlockChunks.write(
                        result, to: publisher.path(path), previous: months)
                    outputs[index] = (path, rows, digest)
                    written.months = chunks
                } else {
                    let (rows, digest) = try TableWriters.writeParquet(spec.build(result), to: publisher.path(path))
                    outputs[index] = (path, rows, digest)
                }
            } catch {
                throw DayfoldError(.output, "writing \(path) failed: \(error)")
            }
        }
        let history = OutputCatalog.history
        for index in history.indices where !history[index].fromSignals { try write(index) }
        result.signals = signals.value()
        for index in history.indices where history[index].fromSignals { try write(index) }
        written.outputs = outputs.compactMap { $0 }
        return written
    }

    /// The series' last step is the run itself: its history parts are the
    /// run's snapshots, copied. Returns their paths, rows and SHA-256.
    private func copyLastStep(
        _ outputs: [(String, Int, String)], publisher: OutputPublisher
    ) throws -> [(String, Int, String)] {
        guard let last = asOfSeries?.steps.last else { return [] }
        var copied: [(String, Int, String)] = []
        for table in AsOfSeries.tables {
            guard let snapshot = outputs.first(where: { $0.0 == "snapshots/\(table).parquet" }) else { continue }
            let path = AsOfSeries.path(table: table, step: last)
            try FileManager.default.createDirectory(
                atPath: (publisher.path(path) as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: publisher.path(snapshot.0), toPath: publisher.path(path))
            copied.append((path, snapshot.1, snapshot.2))
        }
        return copied
    }

    /// An as-of series under a memory budget: each step before the run's own
    /// as-of is a partitioned run into a folder of the staging directory,
    /// whose history tables are kept and the rest let go.
    private func writePartitionedHistory(
        _ layout: DropLayout, partitions: Int, steps: [ParsedInstant], publisher: OutputPublisher
    ) throws -> [(String, Int, String)] {
        var outputs: [(String, Int, String)] = []
        for step in steps {
            var runner = self
            runner.asOf = step
            runner.asOfSeries = nil
            runner.debugTables = false
            runner.historyOnly = true
            let folder = publisher.path(".series-step")
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let parts = try runner.runPartitioned(layout, partitions: partitions, staging: folder)
            for table in AsOfSeries.tables {
                guard let snapshot = parts.outputs.first(where: { $0.0 == "snapshots/\(table).parquet" }) else {
                    continue
                }
                let path = AsOfSeries.path(table: table, step: step)
                try FileManager.default.createDirectory(
                    atPath: (publisher.path(path) as NSString).deletingLastPathComponent,
                    withIntermediateDirectories: true)
                try SystemCall.rename(folder + "/" + snapshot.0, publisher.path(path))
                outputs.append((path, snapshot.1, snapshot.2))
            }
        }
        return outputs
    }

    /// Writes `table` as a CSV report and as its snapshot (and its debug
    /// CSV) into the staging directory `staging`, from one build of each row
    /// group; returns both outputs' paths, rows and SHA-256.
    /// Writes `table` as its catalog entry says: the snapshot, and the CSV
    /// report from the same row groups when it has one; the HTML report's
    /// collector sees the rows as they are written.
    /// `blocks`: a run with a state writes a snapshot laid out in blocks
    /// through it (copying the blocks the previous output holds unchanged),
    /// unless the HTML report reads that table's row groups.
    static func written(
        _ table: OutputTable, spec: OutputTableSpec, in staging: String, debug: Bool, collector: HTMLReportCollector?,
        blocks: SnapshotBlockKeeping? = nil
    ) throws -> [(String, Int, String)] {
        let copyable = collector == nil || !HTMLReportCollector.tables.contains(spec.name)
        if let report = spec.report {
            return try writeReportAndSnapshot(
                table, report: report, in: staging, debug: debug, collector: collector,
                blocks: copyable ? blocks : nil)
        }
        if let blocks, copyable, let written = try blocks.write(spec.name, table, in: staging, debug: debug) {
            return [written]
        }
        return [
            try writeSnapshot(
                spec.name, table, in: staging, debug: debug,
                observe: collector?.observer(table: table.name, fields: table.fields))
        ]
    }

    static func writeReportAndSnapshot(
        _ table: OutputTable, report: String, in staging: String, debug: Bool, collector: HTMLReportCollector? = nil,
        blocks: SnapshotBlockKeeping? = nil
    ) throws -> [(String, Int, String)] {
        let snapshot = "snapshots/\(table.name).parquet"
        let name = table.name
        // With a state, a snapshot laid out in blocks is written through them.
        var inBlocks: (@Sendable (OutputTable) throws -> (rows: Int, sha256: String)?)?
        if let blocks {
            inBlocks = { layout in
                guard layout.blockDigests != nil else { return nil }
                let written = try blocks.write(name, snapshot: layout, in: staging)
                return (written.1, written.2)
            }
        }
        let written = try TableWriters.writeParquetAndCSV(
            table, parquet: staging + "/" + snapshot, csv: staging + "/" + report,
            observe: collector?.observer(table: table.name, fields: table.fields), blocks: inBlocks)
        if debug { try TableWriters.writeCSV(table, to: staging + "/debug/\(table.name).csv") }
        return [
            (report, written.csv.rows, written.csv.sha256), (snapshot, written.parquet.rows, written.parquet.sha256),
        ]
    }

    /// Writes snapshot `name` (and its debug CSV) into the staging directory
    /// `staging` (`OutputPublisher.staging`); returns its path in the
    /// output, row count and SHA-256 (taken as the file is written, not read back).
    private static func writeSnapshot(
        _ name: String, _ table: OutputTable, in staging: String, debug: Bool,
        observe: (@Sendable ([ParquetColumnData]) -> Void)? = nil
    ) throws -> (String, Int, String) {
        let relative = "snapshots/\(name).parquet"
        let (rows, digest) = try TableWriters.writeParquet(table, to: staging + "/" + relative, observe: observe)
        if debug { try TableWriters.writeCSV(table, to: staging + "/debug/\(name).csv") }
        debugRSS("write: \(relative)")
        return (relative, rows, digest)
    }

    /// The run's outcome once its outputs are published.
    private func outcome(read: Int, rejected: Int, publisher: OutputPublisher) -> Outcome {
        let exceeded = read > 0 && Double(rejected) / Double(read) > config.maxRejectFraction
        return Outcome(
            rowsRead: read, rowsRejected: rejected, rejectFractionExceeded: exceeded,
            outputDirectory: publisher.destination)
    }

    /// A failure while writing: the unfinished output is removed, and an
    /// error that is not already the tool's own becomes an output error.
    static func writeFailure(_ error: any Error, _ publisher: OutputPublisher) -> any Error {
        publisher.abandon()
        return error as? DayfoldError ?? DayfoldError(.output, "writing outputs failed: \(error)")
    }
}
