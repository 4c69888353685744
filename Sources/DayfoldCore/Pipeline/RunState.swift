import Foundation

/// What `--state DIR` keeps between runs (SPEC §12): the run it was written
/// by (tool version, pipeline digest, time-zone database, as-of) and, per
/// input file, its size, modification time and SHA-256.
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
    public static let format = 1

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

    public var toolVersion: String
    public var configDigest: String
    public var timeZoneData: String
    public var pipeline: String
    public var asOf: Instant
    /// In the drop's reading order.
    public var files: [FileFacts]
    /// The `PartitionKey`s of the partitions the run stored (`PartitionStore`).
    public var partitionKeys: [String]

    public init(
        toolVersion: String = Manifest.toolVersion, configDigest: String,
        timeZoneData: String = RunState.timeZoneDataVersion, pipeline: String, asOf: Instant, files: [FileFacts],
        partitionKeys: [String] = []
    ) {
        self.toolVersion = toolVersion
        self.configDigest = configDigest
        self.timeZoneData = timeZoneData
        self.pipeline = pipeline
        self.asOf = asOf
        self.files = files
        self.partitionKeys = partitionKeys
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
        ].joined(separator: ",\n")
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
            let check = json["check"] as? String
        else { throw corrupt("a field is missing or of the wrong type") }
        var files: [FileFacts] = []
        for entry in fileList {
            guard let path = entry["path"] as? String, let size = (entry["size"] as? NSNumber)?.int64Value,
                let modified = (entry["modified_ns"] as? NSNumber)?.int64Value, let sha = entry["sha256"] as? String
            else { throw corrupt("a file entry is incomplete") }
            files.append(FileFacts(path: path, size: size, modifiedNanoseconds: modified, sha256: sha))
        }
        let state = RunState(
            toolVersion: tool, configDigest: config, timeZoneData: zones, pipeline: pipeline, asOf: asOf,
            files: files, partitionKeys: keys)
        // The check is of the body as this dayfold writes it: any edit, or
        // a value JSON reads differently than it was written, shows here.
        guard SHA256Hasher.hex(state.bodyText()) == check else { throw corrupt("its check digest does not match") }
        return state
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
