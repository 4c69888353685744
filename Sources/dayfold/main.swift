import DayfoldCore
import DayfoldGenerate
import Foundation

/// The thin executable: argv → configuration → DayfoldCore → exit code.
func writeError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}

func asOfInstant(_ text: String?) throws -> ParsedInstant {
    guard let text else {
        let now = Int64(Date().timeIntervalSince1970 * 1_000_000)
        return ParsedInstant(instant: Instant(micros: now), offsetSeconds: 0)
    }
    guard let parsed = parseAsOf(text) else {
        throw DayfoldError(
            .usage, "--as-of: cannot read \"\(text)\"",
            fix: "write an instant with an offset, e.g. 2026-03-31T18:00:00Z")
    }
    return parsed
}

/// `--progress auto|always|never`: auto shows progress only when stderr is a terminal.
func progressWanted(_ mode: String?) throws -> Bool {
    switch mode ?? "auto" {
    case "auto": return isatty(STDERR_FILENO) != 0
    case "always": return true
    case "never": return false
    default: throw DayfoldError(.usage, "--progress must be auto, always or never")
    }
}

func runCommand(_ argv: [String]) throws -> Int32 {
    let args = try Arguments(
        argv,
        valued: [
            "--input", "--output", "--as-of", "--as-of-series", "--max-memory", "--progress", "--state", "--presplit",
        ],
        bare: ["--debug-tables", "--strict", "--follow-links", "--verify-inputs", "--html"])
    if args.flags.contains("--help") {
        print(Usage.run)
        return 0
    }
    guard args.positionals.count <= 1 else {
        throw DayfoldError(.usage, "run takes at most one pipeline file, got \(args.positionals.count) arguments")
    }
    var config = PipelineConfig()
    if let path = args.positionals.first {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw DayfoldError(
                .usage, "\(path) is a folder, not a pipeline file",
                fix: "to read a drop, use --input \(path) (e.g. dayfold run --input \(path) --output DIR)")
        }
        config = try PipelineConfig.load(path: path)
    }
    if let memory = args.options["--max-memory"] {
        guard parseByteSize(memory) != nil else {
            throw DayfoldError(.usage, "--max-memory: cannot read \"\(memory)\" (use e.g. 512M)")
        }
        config.maxMemory = memory
    }
    guard let input = args.options["--input"] ?? config.input else {
        throw DayfoldError(.usage, "no input drop", fix: "give --input DROP or an \"input\" key in the pipeline file")
    }
    let output = args.options["--output"] ?? config.output ?? "Outputs/\(config.name)"
    // A series ends at the run's own as-of: giving both would say it twice.
    let series = try args.options["--as-of-series"].map(AsOfSeries.parse)
    if series != nil && args.options["--as-of"] != nil {
        throw DayfoldError(
            .usage, "--as-of and --as-of-series both given",
            fix: "give only --as-of-series FROM..TO: the run's outputs are as of TO")
    }
    let asOf = try series?.steps.last ?? asOfInstant(args.options["--as-of"])
    var runner = PipelineRunner(config: config, input: input, output: output, asOf: asOf)
    runner.asOfSeries = series
    runner.debugTables = args.flags.contains("--debug-tables")
    runner.showProgress = try progressWanted(args.options["--progress"])
    runner.keepMemoryUntilExit = true
    runner.followLinks = args.flags.contains("--follow-links")
    runner.statePath = args.options["--state"] ?? config.state
    runner.verifyInputs = args.flags.contains("--verify-inputs")
    runner.html = args.flags.contains("--html") || config.html
    if let text = args.options["--presplit"] {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false).map { Int($0) }
        guard parts.count == 2, let shard = parts[0], let shards = parts[1], shards >= 1, (0..<shards).contains(shard)
        else {
            throw DayfoldError(
                .usage, "--presplit \(text): expected K/N, split K (0…N−1) of N", fix: "e.g. --presplit 0/4")
        }
        runner.presplit = (shard, shards)
    }
    if runner.verifyInputs && runner.statePath == nil {
        throw DayfoldError(
            .usage, "--verify-inputs checks the digests a --state would reuse, and no --state is given",
            fix: "add --state DIR (without a state every input is hashed anyway)")
    }
    let layout = try? DropLayout(root: input, options: DropLayout.Options(followLinks: runner.followLinks))
    if config.maxMemory != nil, let layout, let reason = PartitionRouter.whyNotPartitioned(layout) {
        writeError(
            "dayfold: warning: \(reason); max_memory is not applied to this run (the whole drop is read at once)")
    }
    if let layout, let line = DropLayout.unrecognizedSummary(layout.unrecognizedFiles) { writeError(line) }
    // The heap settings are this process's, chosen for the run it is about to make.
    switch layout.map(runner.memoryProfile) {
    case .wholeUntilExit: ProcessTuning.keepFreedMemory()
    case .partitioned: ProcessTuning.limitMallocArenas()
    case .whole, nil: break
    }
    let outcome = try runner.run()
    print("published \(outcome.outputDirectory) (\(outcome.rowsRead) rows read, \(outcome.rowsRejected) rejected)")
    for line in warningSummary(outcome) { writeError(line) }
    return publishedStatus(
        outcome, maxRejectFraction: config.maxRejectFraction, strict: args.flags.contains("--strict"))
}

/// The lines that bring a published run's warnings to the operator
/// (SPEC §10): counts and the first few; the manifest has them all.
func warningSummary(_ outcome: PipelineRunner.Outcome, shown: Int = 3) -> [String] {
    let manifest = outcome.outputDirectory + "/manifest.json"
    var lines: [String] = []
    func plural(_ count: Int, _ word: String) -> String { "\(count) \(word)\(count == 1 ? "" : "s")" }
    if !outcome.warnings.isEmpty {
        lines.append("dayfold: \(plural(outcome.warnings.count, "warning")) (see \(manifest)):")
        lines += outcome.warnings.prefix(shown).map { "  - \($0)" }
        if outcome.warnings.count > shown { lines.append("  … and \(outcome.warnings.count - shown) more") }
    }
    if !outcome.failedImports.isEmpty {
        let users = outcome.failedImports.prefix(shown).joined(separator: ", ")
        lines.append(
            "dayfold: \(plural(outcome.failedImports.count, "failed health import")) (failed_imports in \(manifest)): "
                + users + (outcome.failedImports.count > shown ? ", …" : ""))
    }
    return lines
}

func validateCommand(_ argv: [String]) throws -> Int32 {
    let args = try Arguments(
        argv, valued: ["--as-of", "--pipeline", "--progress"], bare: ["--json", "--follow-links"])
    if args.flags.contains("--help") {
        print(Usage.validate)
        return 0
    }
    guard args.positionals.count == 1, let input = args.positionals.first else {
        throw DayfoldError(
            .usage, "validate needs exactly one DROP folder", fix: "dayfold validate DROP [--as-of INSTANT] [--json]")
    }
    var config = PipelineConfig()
    if let path = args.options["--pipeline"] { config = try PipelineConfig.load(path: path) }
    let asOf = try asOfInstant(args.options["--as-of"])
    // The report names no digests: no file is hashed (an export.xml was
    // hashed again after it was read, a serial pass as long as the scan).
    let drop = try PipelineRunner.ingest(
        input: input, config: config, asOf: asOf, retainRows: false,
        showProgress: try progressWanted(args.options["--progress"]), hashInputs: false, hashWhileReading: false,
        layoutOptions: DropLayout.Options(followLinks: args.flags.contains("--follow-links")))
    if let line = DropLayout.unrecognizedSummary(drop.unrecognizedFiles) { writeError(line) }
    if args.flags.contains("--json") {
        print(ValidationReport.json(drop))
    } else {
        print(ValidationReport.table(drop))
    }
    let exceeded = drop.rowsRead > 0 && Double(drop.rowsRejected) / Double(drop.rowsRead) > config.maxRejectFraction
    return exceeded ? 3 : 0
}

func inspectCommand(_ argv: [String]) throws -> Int32 {
    let args = try Arguments(argv, valued: ["--rows"], bare: [])
    if args.flags.contains("--help") {
        print(Usage.inspect)
        return 0
    }
    guard args.positionals.count == 1, let path = args.positionals.first else {
        throw DayfoldError(
            .usage, "inspect needs exactly one Parquet file", fix: "dayfold inspect OUT/snapshots/streaks.parquet")
    }
    let rows = Int(args.options["--rows"] ?? "5") ?? 5
    print(try SnapshotInspector.describe(path: path, rows: rows))
    return 0
}

func generateCommand(_ argv: [String]) throws -> Int32 {
    let args = try Arguments(
        argv, valued: ["--clients", "--days", "--seed", "--out", "--end-date"], bare: ["--zstd", "--no-push"])
    if args.flags.contains("--help") {
        print(Usage.generate)
        return 0
    }
    guard args.positionals.isEmpty else { throw DayfoldError(.usage, "generate takes no positional arguments") }
    func integer(_ flag: String, _ fallback: Int?) throws -> Int {
        guard let text = args.options[flag] else {
            guard let fallback else {
                throw DayfoldError(.usage, "generate needs \(flag)", fix: "see dayfold generate --help")
            }
            return fallback
        }
        guard let value = Int(text), value >= 0 else {
            throw DayfoldError(.usage, "\(flag): not a whole number: \(text)")
        }
        return value
    }
    guard let output = args.options["--out"] else {
        throw DayfoldError(
            .usage, "generate needs --out DIR", fix: "dayfold generate --clients 10 --days 60 --seed 1 --out /tmp/drop")
    }
    let options = DropGeneratorOptions(
        clients: try integer("--clients", nil), days: try integer("--days", nil),
        seed: UInt64(try integer("--seed", 1)),
        output: output, zstd: args.flags.contains("--zstd"), endDate: args.options["--end-date"] ?? "2026-03-31",
        push: !args.flags.contains("--no-push"))
    let summary = try DropGenerator.generate(options) { line in
        if isatty(STDERR_FILENO) != 0 { writeError("dayfold: \(line)") }
    }
    print(
        "generated \(output): \(summary.files.count) files, \(summary.totalRows) rows, \(summary.csvBytes / 1_000_000) MB of CSV (\(summary.firstDate) … \(summary.lastDate))"
    )
    return 0
}

/// `dayfold shard DROP --shards N --out DIR` (SPEC §13).
func shardCommand(_ argv: [String]) throws -> Int32 {
    let args = try Arguments(argv, valued: ["--shards", "--out"], bare: ["--follow-links"])
    if args.flags.contains("--help") {
        print(Usage.shard)
        return 0
    }
    guard args.positionals.count == 1, let drop = args.positionals.first else {
        throw DayfoldError(
            .usage, "shard needs exactly one DROP folder", fix: "dayfold shard DROP --shards N --out DIR")
    }
    guard let text = args.options["--shards"], let shards = Int(text), shards >= 1 else {
        throw DayfoldError(
            .usage, "shard needs --shards N (a whole number ≥ 1)", fix: "dayfold shard DROP --shards 4 --out DIR")
    }
    guard let out = args.options["--out"] else {
        throw DayfoldError(.usage, "shard needs --out DIR", fix: "dayfold shard DROP --shards \(shards) --out DIR")
    }
    var sharder = DropSharder(drop: drop, shards: shards, output: out)
    sharder.followLinks = args.flags.contains("--follow-links")
    let summary = try sharder.run()
    let rows = summary.rowsByShard.reduce(0, +)
    print(
        "sharded \(drop) into \(shards) shard\(shards == 1 ? "" : "s") in \(summary.output) (\(rows) rows routed; see manifest.json)"
    )
    return 0
}

/// `dayfold merge PART… --output OUT` (SPEC §13).
func mergeCommand(_ argv: [String]) throws -> Int32 {
    let args = try Arguments(argv, valued: ["--output"], bare: ["--debug-tables", "--strict", "--html"])
    if args.flags.contains("--help") {
        print(Usage.merge)
        return 0
    }
    guard !args.positionals.isEmpty else {
        throw DayfoldError(
            .usage, "merge needs the output folder of every shard run", fix: "dayfold merge OUT-0 OUT-1 … --output OUT")
    }
    guard let output = args.options["--output"] else {
        throw DayfoldError(.usage, "merge needs --output OUT", fix: "dayfold merge OUT-0 OUT-1 … --output OUT")
    }
    var merger = ShardMerger(parts: args.positionals, output: output)
    merger.debugTables = args.flags.contains("--debug-tables")
    merger.html = args.flags.contains("--html")
    let outcome = try merger.run()
    print("published \(outcome.outputDirectory) (\(outcome.rowsRead) rows read, \(outcome.rowsRejected) rejected)")
    for line in warningSummary(outcome) { writeError(line) }
    return publishedStatus(
        outcome, maxRejectFraction: merger.maxRejectFraction, strict: args.flags.contains("--strict"))
}

/// The exit code of a published run or merge (SPEC §7): 3 when rejects
/// exceed `max_reject_fraction` or, with `--strict`, when it has warnings,
/// failed imports or unread files; else 0.
func publishedStatus(_ outcome: PipelineRunner.Outcome, maxRejectFraction: Double, strict: Bool) -> Int32 {
    if outcome.rejectFractionExceeded {
        writeError(
            "dayfold: rejected rows (\(outcome.rowsRejected) of \(outcome.rowsRead)) exceed max_reject_fraction \(maxRejectFraction); see \(outcome.outputDirectory)/rejects/rejects.csv"
        )
        return 3
    }
    let flagged = outcome.warnings.count + outcome.failedImports.count + outcome.unrecognizedFiles
    if strict && flagged > 0 {
        writeError("dayfold: --strict: the run was published, but it has warnings, failed imports or unread files")
        return 3
    }
    return 0
}

func main() -> Int32 {
    let argv = Array(CommandLine.arguments.dropFirst())
    guard let command = argv.first else {
        // Usage on stderr: a bare `dayfold` in a script is a mistake, not a request for help.
        writeError(Usage.main)
        return 2
    }
    do {
        switch command {
        case "-h", "--help":
            print(Usage.main)
            return 0
        case "--version", "version":
            print("dayfold \(Manifest.toolVersion)")
            return 0
        case "help":
            switch argv.dropFirst().first {
            case "run": print(Usage.run)
            case "validate": print(Usage.validate)
            case "inspect": print(Usage.inspect)
            case "generate": print(Usage.generate)
            case "shard": print(Usage.shard)
            case "merge": print(Usage.merge)
            default: print(Usage.main)
            }
            return 0
        case "run": return try runCommand(Array(argv.dropFirst()))
        case "validate": return try validateCommand(Array(argv.dropFirst()))
        case "inspect": return try inspectCommand(Array(argv.dropFirst()))
        case "generate": return try generateCommand(Array(argv.dropFirst()))
        case "shard": return try shardCommand(Array(argv.dropFirst()))
        case "merge": return try mergeCommand(Array(argv.dropFirst()))
        default:
            let known = command.hasPrefix("-") ? ["--help", "--version"] : Usage.commands
            let nearest = NearestName.suggestion(for: command, among: known)
            throw DayfoldError(
                .usage,
                (command.hasPrefix("-") ? "unknown option \(command)" : "unknown command \"\(command)\"")
                    + (nearest.map { "; did you mean \($0)?" } ?? ""),
                fix: "run `dayfold --help` to see the commands")
        }
    } catch let error as DayfoldError {
        writeError("dayfold: error: \(error.message)" + (error.fix.map { "\nfix: \($0)" } ?? ""))
        return error.exitCode
    } catch {
        writeError("dayfold: error: \(error)")
        return 1
    }
}

exit(main())
