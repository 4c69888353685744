import Foundation

/// What `--state DIR` keeps between runs (SPEC §12): the run it was written
/// by (tool version, pipeline digest, time-zone database, as-of) and, per
/// input file, its size, modification time and SHA-256; and how the
/// snapshots laid out in blocks were written (`SnapshotBlocks`), which only
/// the same build of dayfold may copy from (`build`).
///
/// Why these and nothing the run could re-derive cheaply: a later run trusts
/// the state only where its header matches exactly, and a file's digest only
/// while its size and modification time are unchanged (the one use of
/// metadata SPEC §12 allows: skipping the re-reading of a file whose digest
/// is known). What changed is always decided by digests, never by a clock.
///
/// Written by `RunState.encoded()` in a fixed order with a SHA-256 of its own
/// body, so a truncated or hand-edited state is recognised as corrupt rather
/// than half-trusted.
public struct RunState: Sendable, Equatable {
    /// Bumped whenever the layout or the meaning of a field changes: a state
    /// of another format is not read (the run is a full one, saying why).
    public static let format = 3

    /// A file of the drop as the state last saw it.
    public struct FileFacts: Sendable, Equatable {
        /// Relative to the drop.
        public var path: String
        public var size: Int64
        /// `st_mtim` in nanoseconds since 1970.
        public var modifiedNanoseconds: Int64
        public var sha256: String

        public init(path: String, size: Int64, modifiedNanoseconds: Int64, sha256: String) {
            self.path = path
            self.size = size
            self.modifiedNanoseconds = modifiedNanoseconds
            self.sha256 = sha256
        }
    }

    /// The drop's reading kept beside the state (`ReadingArchive`), for
    /// the next run on the same files.
    public struct Reading: Sendable, Equatable {
        /// Its file's name in the state's folder.
        public var file: String
        public var size: Int64
        /// `BinaryArchiveWriter`'s check of its bytes.
        public var check: String
        /// The as-of it was read as of.
        public var asOf: Instant
        /// The as-ofs it holds for (`IngestedDrop.asOfWindow`).
        public var window: AsOfWindow
        /// The file of the tables a resumed reading starts from
        /// (`ReadingArchive.writeTables`; nil: none were kept). The rows'
        /// file names their check.
        public var tablesFile: String?

        public init(
            file: String, size: Int64, check: String, asOf: Instant, window: AsOfWindow, tablesFile: String? = nil
        ) {
            self.file = file
            self.size = size
            self.check = check
            self.asOf = asOf
            self.window = window
            self.tablesFile = tablesFile
        }

        /// Whether a run as of `asOf` reads the drop as this reading did.
        public func holds(asOf: Instant) -> Bool { asOf == self.asOf || window.holds(asOf: asOf) }
    }

    public var toolVersion: String
    public var configDigest: String
    public var timeZoneData: String
    public var pipeline: String
    public var asOf: Instant
    /// In the drop's reading order.
    public var files: [FileFacts]
    /// The `PartitionKey`s of the partitions the run stored (`PartitionStore`).
    public var partitionKeys: [String]
    /// The SHA-256 of the dayfold executable that wrote the state
    /// (`RunState.currentBuild`): a block's row groups are copied only by
    /// the build that encoded them, since another may encode them otherwise
    /// under the same version number.
    public var build: String
    /// Per snapshot table, how its published file's blocks were written.
    public var snapshotBlocks: [String: SnapshotBlocks]
    /// The reading kept by a whole run (nil: none; a partitioned run or an
    /// as-of series keeps none).
    public var reading: Reading?

    public init(
        toolVersion: String = Manifest.toolVersion, configDigest: String,
        timeZoneData: String = RunState.timeZoneDataVersion, pipeline: String, asOf: Instant, files: [FileFacts],
        partitionKeys: [String] = [], build: String = "", snapshotBlocks: [String: SnapshotBlocks] = [:],
        reading: Reading? = nil
    ) {
        self.toolVersion = toolVersion
        self.configDigest = configDigest
        self.timeZoneData = timeZoneData
        self.pipeline = pipeline
        self.asOf = asOf
        self.files = files
        self.partitionKeys = partitionKeys
        self.build = build
        self.snapshotBlocks = snapshotBlocks
        self.reading = reading
    }

    /// The SHA-256 of the running executable, or "" when it cannot be read
    /// (then no block is ever copied).
    public static let currentBuild: String = (try? SHA256Hasher.hex(file: "/proc/self/exe")) ?? ""

    /// The blocks of `table`'s published file that this build may copy.
    public func copyableBlocks(of table: String) -> SnapshotBlocks? {
        guard !build.isEmpty, build == RunState.currentBuild else { return nil }
        return snapshotBlocks[table]
    }

    /// The time-zone database the run's local days come from: a state
    /// written under another one may hold other local days.
    public static var timeZoneDataVersion: String { TimeZone.timeZoneDataVersion }

    /// The state file's text: the body in a fixed key order, then its own SHA-256.
    public func encoded() -> String {
        let body = bodyText()
        return "{\n" + body + ",\n  \"check\": \(jsonString(SHA256Hasher.hex(body)))\n}\n"
    }

    private func bodyText() -> String {
        let fileLines = files.map {
            "    {\"path\": \(jsonString($0.path)), \"size\": \($0.size), "
                + "\"modified_ns\": \($0.modifiedNanoseconds), \"sha256\": \(jsonString($0.sha256))}"
        }
        return [
            "  \"format\": \(RunState.format)",
            "  \"tool_version\": \(jsonString(toolVersion))",
            "  \"config_digest\": \(jsonString(configDigest))",
            "  \"time_zone_data\": \(jsonString(timeZoneData))",
            "  \"pipeline\": \(jsonString(pipeline))",
            "  \"as_of\": \(jsonString(asOf.description))",
            "  \"files\": [" + (fileLines.isEmpty ? "" : "\n" + fileLines.joined(separator: ",\n") + "\n  ") + "]",
            "  \"partitions\": [\(partitionKeys.map(jsonString).joined(separator: ", "))]",
            "  \"build\": \(jsonString(build))",
            "  \"snapshot_blocks\": {" + blockText() + "}",
            "  \"reading\": " + readingText(),
        ].joined(separator: ",\n")
    }

    /// `reading`: null, or the kept reading's file, size, check, as-of,
    /// the as-ofs it holds for (microseconds: exact) and its tables' file
    /// (left out when there is none).
    private func readingText() -> String {
        guard let reading else { return "null" }
        return "{\"file\": \(jsonString(reading.file)), \"size\": \(reading.size), "
            + "\"check\": \(jsonString(reading.check)), \"as_of\": \(jsonString(reading.asOf.description)), "
            + "\"holds_from_us\": \(reading.window.latestNotAfter.map { "\($0.micros)" } ?? "null"), "
            + "\"holds_before_us\": \(reading.window.earliestAfter.map { "\($0.micros)" } ?? "null")"
            + (reading.tablesFile.map { ", \"tables_file\": \(jsonString($0))" } ?? "") + "}"
    }

    /// `snapshot_blocks`: per table (in name order), the file and its blocks
    /// as `[digest, rows, row groups, written]`.
    private func blockText() -> String {
        let tables = snapshotBlocks.keys.sorted(by: bytesLess).compactMap { name -> String? in
            guard let record = snapshotBlocks[name] else { return nil }
            let blocks = record.blocks.map {
                "      [\(jsonString($0.digest)), \($0.rows), \($0.rowGroups), \(jsonString($0.written))]"
            }
            return "\n    \(jsonString(name)): {\"path\": \(jsonString(record.path)), \"blocks\": ["
                + (blocks.isEmpty ? "" : "\n" + blocks.joined(separator: ",\n") + "\n    ") + "]}"
        }
        return tables.isEmpty ? "" : tables.joined(separator: ",") + "\n  "
    }

    /// Why a state file's bytes cannot be used.
    public struct Unreadable: Error, Sendable, Equatable {
        public var reason: String
    }

    /// Reads a state file's bytes; throws `Unreadable` with what is wrong.
    public static func decode(_ data: Data) throws(Unreadable) -> RunState {
        func corrupt(_ what: String) -> Unreadable { Unreadable(reason: "the state file is corrupt (\(what))") }
        guard let object = try? JSONSerialization.jsonObject(with: data), let json = object as? [String: Any] else {
            throw corrupt("not a JSON object: truncated or overwritten")
        }
        guard let format = json["format"] as? NSNumber else { throw corrupt("no format") }
        guard format.intValue == RunState.format else {
            throw Unreadable(
                reason: "the state is of format \(format.intValue); this dayfold reads format \(RunState.format)")
        }
        guard let tool = json["tool_version"] as? String, let config = json["config_digest"] as? String,
            let zones = json["time_zone_data"] as? String, let pipeline = json["pipeline"] as? String,
            let asOfText = json["as_of"] as? String, let asOf = parseAsOf(asOfText)?.instant,
            let fileList = json["files"] as? [[String: Any]], let keys = json["partitions"] as? [String],
            let build = json["build"] as? String, let blockTables = json["snapshot_blocks"] as? [String: Any],
            let check = json["check"] as? String
        else { throw corrupt("a field is missing or of the wrong type") }
        var files: [FileFacts] = []
        for entry in fileList {
            guard let path = entry["path"] as? String, let size = (entry["size"] as? NSNumber)?.int64Value,
                let modified = (entry["modified_ns"] as? NSNumber)?.int64Value, let sha = entry["sha256"] as? String
            else { throw corrupt("a file entry is incomplete") }
            files.append(FileFacts(path: path, size: size, modifiedNanoseconds: modified, sha256: sha))
        }
        var snapshotBlocks: [String: SnapshotBlocks] = [:]
        for (name, value) in blockTables {
            guard let record = value as? [String: Any], let path = record["path"] as? String,
                let entries = record["blocks"] as? [[Any]]
            else { throw corrupt("a snapshot's blocks are incomplete") }
            var blocks: [SnapshotBlocks.Block] = []
            for entry in entries {
                guard entry.count == 4, let digest = entry[0] as? String, let rows = (entry[1] as? NSNumber)?.intValue,
                    let groups = (entry[2] as? NSNumber)?.intValue, let written = entry[3] as? String
                else { throw corrupt("a snapshot block is incomplete") }
                blocks.append(SnapshotBlocks.Block(digest: digest, rows: rows, rowGroups: groups, written: written))
            }
            snapshotBlocks[name] = SnapshotBlocks(path: path, blocks: blocks)
        }
        var reading: Reading?
        if let record = json["reading"] as? [String: Any] {
            guard let file = record["file"] as? String, let size = (record["size"] as? NSNumber)?.int64Value,
                let readingCheck = record["check"] as? String, let asOfText = record["as_of"] as? String,
                let readAsOf = parseAsOf(asOfText)?.instant,
                let from = instantOrNull(record["holds_from_us"]),
                let before = instantOrNull(record["holds_before_us"])
            else { throw corrupt("the kept reading's record is incomplete") }
            let tablesFile = record["tables_file"]
            guard tablesFile == nil || tablesFile is String else {
                throw corrupt("the kept reading's tables file is not a name")
            }
            reading = Reading(
                file: file, size: size, check: readingCheck, asOf: readAsOf,
                window: AsOfWindow(latestNotAfter: from, earliestAfter: before), tablesFile: tablesFile as? String)
        } else if !(json["reading"] is NSNull) {
            throw corrupt("no reading field")
        }
        let state = RunState(
            toolVersion: tool, configDigest: config, timeZoneData: zones, pipeline: pipeline, asOf: asOf,
            files: files, partitionKeys: keys, build: build, snapshotBlocks: snapshotBlocks, reading: reading)
        // The check is of the body as this dayfold writes it: any edit, or
        // a value JSON reads differently than it was written, shows here.
        guard SHA256Hasher.hex(state.bodyText()) == check else { throw corrupt("its check digest does not match") }
        return state
    }

    /// A JSON value that is null or microseconds since 1970 (`.some(nil)`:
    /// null); nil when it is neither.
    private static func instantOrNull(_ value: Any?) -> Instant?? {
        if value is NSNull { return .some(nil) }
        guard let number = value as? NSNumber else { return nil }
        return .some(Instant(micros: number.int64Value))
    }

    /// Why a full run is needed with this state, or nil when it can be used
    /// for a run of `configDigest` under this tool and time-zone database.
    public func doubt(configDigest: String) -> String? {
        if toolVersion != Manifest.toolVersion {
            return "the state was written by dayfold \(toolVersion); this is \(Manifest.toolVersion)"
        }
        if self.configDigest != configDigest {
            return "the pipeline changed since the state was written (config digest \(self.configDigest.prefix(12))… "
                + "→ \(configDigest.prefix(12))…)"
        }
        if timeZoneData != RunState.timeZoneDataVersion {
            return "the time-zone database changed since the state was written (\(timeZoneData) → "
                + "\(RunState.timeZoneDataVersion)): local days may differ"
        }
        return nil
    }
}
