import Foundation

/// `dayfold merge PART… --output OUT` (SPEC §13): the published outputs of
/// one run per shard merged into the outputs of a whole run of the drop —
/// the same bytes in reports, snapshots and rejects, and the manifest's
/// accounting and input digests as a whole run writes them.
///
/// Parts of other as-ofs, pipelines or dayfold versions, parts of another
/// drop or sharding, and a missing or repeated shard are refused (exit 2)
/// before anything is written.
public struct ShardMerger {
    public var parts: [String]
    public var output: String
    public var debugTables = false
    /// `--html`: also publish `report/` (SPEC §14), as a whole run with `--html` does.
    /// Shards run with the pipeline key `html` ask for it too.
    public var html = false

    public init(parts: [String], output: String) {
        self.parts = parts
        self.output = output
    }

    struct Part {
        var folder: String
        var facts: ShardRunFacts
        var contribution: PartitionContribution
    }

    /// The parts' `max_reject_fraction` (one pipeline, so one value), for the exit code.
    public private(set) var maxRejectFraction = 0.05

    public mutating func run() throws -> PipelineRunner.Outcome {
        let started = Date()
        let loaded = try parts.map(Self.read).sorted { $0.facts.marker.shard < $1.facts.marker.shard }
        try Self.check(loaded)
        guard let first = loaded.first else {
            throw DayfoldError(
                .usage, "merge needs the outputs of every shard", fix: "dayfold merge OUT-0 OUT-1 … --output OUT")
        }
        maxRejectFraction = first.facts.maxRejectFraction
        let target = try OutputTarget(output: output, drop: first.folder)
        let publisher = try OutputPublisher(target: target)
        let marker = Self.wholeDrop(first, loaded)
        var merged: PipelineRunner.PartitionedParts
        var publishWarnings: [String] = []
        do {
            let html = html || loaded.contains { $0.facts.html == true }
            let collector = html ? HTMLReportCollector(asOf: Instant(micros: first.facts.asOfMicros)) : nil
            merged = try PipelineRunner.mergePartitions(
                PartitionMerge(
                    contributions: loaded.map(Self.namedInWholeDrop), partFolders: loaded.map { $0.folder + "/parts" },
                    originalPaths: marker.originalPaths, sharedFiles: Set(marker.sharedFiles),
                    readingOrder: marker.readingOrder, digests: marker.digests, hasPush: marker.hasPush),
                staging: publisher.staging, debug: debugTables, collector: collector)
            if let collector {
                let summary = HTMLRunSummary(
                    pipeline: first.facts.pipeline, asOf: Instant(micros: first.facts.asOfMicros),
                    inputs: merged.accounts, warnings: merged.warnings,
                    failedImports: merged.failedImports.sorted(by: bytesLess), rejects: merged.rejects)
                merged.outputs += try HTMLReport.write(summary, rows: collector.collected, into: publisher.staging)
                merged.outputs.sort { bytesLess($0.0, $1.0) }
            }
            var manifest = Manifest(
                pipelineName: first.facts.pipeline, configDigest: first.facts.configDigest,
                asOf: Instant(micros: first.facts.asOfMicros), inputs: merged.accounts, outputs: merged.outputs,
                warnings: merged.warnings, failedImports: merged.failedImports.sorted(by: bytesLess),
                timings: [("merge", Date().timeIntervalSince(started))], unrecognizedFiles: marker.unrecognizedFiles)
            manifest.hasPushFolder = marker.hasPush
            try Data(manifest.json().utf8).write(to: URL(fileURLWithPath: publisher.path("manifest.json")))
            publishWarnings = try publisher.publish()
        } catch {
            throw PipelineRunner.writeFailure(error, publisher)
        }
        let read = merged.accounts.reduce(0) { $0 + $1.rowsRead }
        let rejected = merged.accounts.reduce(0) { $0 + $1.rejected }
        var outcome = PipelineRunner.Outcome(
            rowsRead: read, rowsRejected: rejected,
            rejectFractionExceeded: read > 0 && Double(rejected) / Double(read) > first.facts.maxRejectFraction,
            outputDirectory: publisher.destination)
        outcome.warnings = merged.warnings + publishWarnings
        outcome.failedImports = merged.failedImports.sorted(by: bytesLess)
        outcome.unrecognizedFiles = marker.unrecognizedFiles.count
        return outcome
    }

    /// What the merged manifest says of the drop: a `dayfold shard` marker
    /// describes the whole drop already (every part's is the same); splits
    /// the export made are joined, each split's files under its folder's
    /// name (`eu/tasks/…`), in split order.
    static func wholeDrop(_ first: Part, _ parts: [Part]) -> ShardMarker {
        var marker = first.facts.marker
        guard marker.presplitFolder != nil else { return marker }
        marker.readingOrder = []
        marker.unrecognizedFiles = []
        marker.hasPush = false
        for part in parts {
            let split = part.facts.marker
            let prefix = (split.presplitFolder ?? "") + "/"
            marker.readingOrder += split.readingOrder.map { prefix + $0 }
            marker.unrecognizedFiles += split.unrecognizedFiles.map { file in
                var file = file
                file.path = prefix + file.path
                return file
            }
            marker.hasPush = marker.hasPush || split.hasPush
            for account in part.contribution.accounts { marker.digests[prefix + account.path] = account.sha256 }
        }
        return marker
    }

    /// A part's contribution with its files named as in the merged manifest:
    /// unchanged for a `dayfold shard` shard, under the split folder's name
    /// for a split the export made.
    static func namedInWholeDrop(_ part: Part) -> PartitionContribution {
        guard let folder = part.facts.marker.presplitFolder else { return part.contribution }
        var contribution = part.contribution
        for index in contribution.accounts.indices {
            contribution.accounts[index].path = folder + "/" + contribution.accounts[index].path
        }
        for index in contribution.rejects.indices {
            contribution.rejects[index].file = folder + "/" + contribution.rejects[index].file
        }
        return contribution
    }

    /// A shard run's published output.
    static func read(_ folder: String) throws -> Part {
        let parts = (folder as NSString).appendingPathComponent("parts")
        guard let factsData = FileManager.default.contents(atPath: parts + "/" + ShardRunFacts.fileName),
            let facts = try? JSONDecoder().decode(ShardRunFacts.self, from: factsData)
        else {
            throw DayfoldError(
                .usage, "\(folder): not the output of a shard run (no readable parts/\(ShardRunFacts.fileName))",
                fix: "give the --output folders of `dayfold run --input DIR/shard=K`")
        }
        guard let data = FileManager.default.contents(atPath: parts + "/contribution.json"),
            let contribution = try? JSONDecoder().decode(PartitionContribution.self, from: data)
        else {
            throw DayfoldError(
                .input, "\(folder): parts/contribution.json is missing or damaged", fix: "run the shard again")
        }
        for (table, size) in contribution.partSizes {
            guard (try? SystemCall.status(parts + "/\(table).csv"))?.size == size else {
                throw DayfoldError(
                    .input, "\(folder): parts/\(table).csv is missing or damaged", fix: "run the shard again")
            }
        }
        return Part(folder: folder, facts: facts, contribution: contribution)
    }

    /// Every shard once, all of one sharding, drop, pipeline, as-of and dayfold.
    static func check(_ parts: [Part]) throws {
        guard let first = parts.first else {
            throw DayfoldError(
                .usage, "merge needs the outputs of every shard", fix: "dayfold merge OUT-0 OUT-1 … --output OUT")
        }
        func refuse(_ part: Part, _ what: String) -> DayfoldError {
            DayfoldError(
                .usage, "\(part.folder): \(what) than \(first.folder)",
                fix: "merge the outputs of one sharding, each run with the same pipeline, --as-of and dayfold")
        }
        for part in parts.dropFirst() {
            let (a, b) = (first.facts, part.facts)
            if b.asOfMicros != a.asOfMicros { throw refuse(part, "another as-of") }
            if b.configDigest != a.configDigest || b.pipeline != a.pipeline { throw refuse(part, "another pipeline") }
            if b.marker.toolVersion != a.marker.toolVersion { throw refuse(part, "another dayfold version") }
            if (b.marker.presplitFolder == nil) != (a.marker.presplitFolder == nil) {
                throw refuse(part, "another kind of split (--presplit or dayfold shard)")
            }
            if b.marker.shards != a.marker.shards
                || (a.marker.presplitFolder == nil
                    && (b.marker.digests != a.marker.digests || b.marker.readingOrder != a.marker.readingOrder))
            {
                throw refuse(part, "another drop or sharding")
            }
            if let folder = b.marker.presplitFolder,
                parts.filter({ $0.facts.marker.presplitFolder == folder }).count > 1
            {
                throw DayfoldError(
                    .usage, "two splits are named \(folder)",
                    fix: "give each split of the export a folder of its own name")
            }
        }
        let count = first.facts.marker.shards
        let present = parts.map(\.facts.marker.shard)
        if let repeated = Dictionary(grouping: present, by: { $0 }).first(where: { $0.value.count > 1 })?.key {
            throw DayfoldError(.usage, "shard \(repeated) is given twice", fix: "give each shard's output once")
        }
        let missing = (0..<count).filter { !present.contains($0) }
        if !missing.isEmpty {
            throw DayfoldError(
                .usage,
                "shard\(missing.count == 1 ? "" : "s") \(missing.map(String.init).joined(separator: ", ")) of \(count) "
                    + "missing",
                fix: "run every shard=K of the sharding and give all their outputs")
        }
    }
}
