import DayfoldCore
import Foundation

/// Writes a synthetic export drop (SPEC §1 layout) for benchmarks and load
/// tests: `clients` relationships over `days` local dates, in several zones
/// across DST switches, with the shapes real exports have — weekly task
/// plans, late completions, offline retries, re-exports, journal edits, two
/// step sources — and a small share (~0.2 %) of rows the pipeline must reject.
///
/// Rows are streamed to their files through ~1 MB buffers, so memory stays
/// flat whatever the size; big kinds are split into numbered files. The same
/// options give byte-identical files: every value comes from a SplitMix64
/// stream keyed by (seed, kind, client, day).
///
///     let summary = try DropGenerator.generate(
///         DropGeneratorOptions(clients: 2000, days: 365, seed: 42, output: "/tmp/drop"))
///     // ≈ 1 GB of CSV
public enum DropGenerator {
    /// Generates the drop into `options.output` (created; it must not exist
    /// or be empty). `progress` gets a line now and then; nothing is printed.
    public static func generate(
        _ options: DropGeneratorOptions, progress: (String) -> Void = { _ in }
    ) throws -> DropGeneratorSummary {
        guard options.clients >= 1 else {
            throw DayfoldError(.usage, "--clients must be at least 1 (got \(options.clients))")
        }
        guard options.days >= 1 else {
            throw DayfoldError(.usage, "--days must be at least 1 (got \(options.days))")
        }
        guard let lastDay = CivilCalendar.parseDay(options.endDate) else {
            throw DayfoldError(.usage, "end date \(options.endDate) is not a date", fix: "write it as YYYY-MM-DD")
        }
        try prepareOutput(options.output)
        let firstDay = lastDay - options.days + 1
        let zones = try ZoneOffsetTable(firstDay: firstDay - 2, lastDay: lastDay + 5)
        let context = SyntheticDropContext(seed: options.seed, zones: zones, firstDay: firstDay, lastDay: lastDay)
        let root = options.output
        let clients = (0..<options.clients).map {
            SyntheticClient(index: $0, seed: options.seed, firstDay: firstDay, lastDay: lastDay)
        }
        var states = clients.map { SyntheticClientState(massGrams: $0.startMassGrams) }

        var parts = try SubjectsWriter.write(clients: clients, root: root, zstd: options.zstd, context: context)
        progress("subjects: \(clients.count) relationships")
        var tasks = try TaskDayWriter(
            root: root, zstd: options.zstd, maxPartBytes: options.maxFileBytes, context: context)
        if options.push {
            tasks.push = try PushDayWriter(
                clients: clients, root: root, zstd: options.zstd, maxPartBytes: options.maxFileBytes, context: context)
        }
        var journal = try JournalDayWriter(
            root: root, zstd: options.zstd, maxPartBytes: options.maxFileBytes, context: context)
        var health = try HealthDayWriter(
            root: root, zstd: options.zstd, maxPartBytes: options.maxFileBytes, context: context)

        // Day-major, like a nightly export: every client's rows of one date, then the next.
        var reportedTenth = 0
        for day in firstDay...lastDay {
            for clientIndex in clients.indices {
                let client = clients[clientIndex]
                var rng = SplitMix64(seed: options.seed, stream: 0xDA7, clientIndex, day)
                let quiet = advanceQuietSpell(&states[clientIndex], rng: &rng)
                let zone = client.zone(onDay: day)
                if client.hasTasks(onDay: day) {
                    try tasks.write(client: client, day: day, quiet: quiet)
                }
                guard client.hasPersonalData(onDay: day, firstDay: firstDay) else { continue }
                if client.journals && !quiet {
                    var journalRNG = SplitMix64(seed: options.seed, stream: 0x10A1, clientIndex, day)
                    try journal.write(client: client, day: day, zone: zone, rng: &journalRNG)
                }
                if client.health {
                    var healthRNG = SplitMix64(seed: options.seed, stream: 0x4EA1, clientIndex, day)
                    try health.write(client: client, state: &states[clientIndex], day: day, zone: zone, rng: &healthRNG)
                }
            }
            let tenth = (day - firstDay + 1) * 10 / options.days
            if tenth > reportedTenth {
                reportedTenth = tenth
                progress("day \(day - firstDay + 1) of \(options.days)")
            }
        }
        parts += try tasks.finish()
        parts += try journal.finish()
        parts += try health.finish()
        parts.sort { Array($0.relativePath.utf8).lexicographicallyPrecedes(Array($1.relativePath.utf8)) }
        progress("wrote \(parts.count) files")

        var firstText = CSVRowBuffer(capacity: 10)
        firstText.date(firstDay)
        var lastText = CSVRowBuffer(capacity: 10)
        lastText.date(lastDay)
        return DropGeneratorSummary(
            files: parts.map { (path: $0.relativePath, rows: $0.rows, bytes: $0.bytes) },
            csvBytes: parts.reduce(0) { $0 + $1.csvBytes },
            firstDate: String(decoding: firstText.bytes, as: UTF8.self),
            lastDate: String(decoding: lastText.bytes, as: UTF8.self))
    }

    /// A client now and then goes quiet for 3–12 days: no events, no journal.
    private static func advanceQuietSpell(_ state: inout SyntheticClientState, rng: inout SplitMix64) -> Bool {
        if state.quietDaysLeft > 0 {
            state.quietDaysLeft -= 1
            return true
        }
        if rng.chance(0.006) {
            state.quietDaysLeft = 2 + rng.below(10)
            return true
        }
        return false
    }

    private static func prepareOutput(_ path: String) throws {
        let files = FileManager.default
        var isDirectory: ObjCBool = false
        if files.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw DayfoldError(.usage, "output \(path) is a file", fix: "pass a new folder for the drop")
            }
            let entries = try files.contentsOfDirectory(atPath: path)
            guard entries.isEmpty else {
                throw DayfoldError(
                    .usage, "output folder \(path) is not empty", fix: "pass a new or empty folder for the drop")
            }
        }
        do {
            try files.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw DayfoldError(.output, "cannot create \(path): \(error)")
        }
    }
}
