import Foundation

/// A pipeline file (SPEC §8). Every key is optional; unknown keys are an
/// error naming the key; command-line flags override the file.
public struct PipelineConfig: Sendable {
    public var name = "adhoc"
    public var input: String?
    public var output: String?
    public var defaultTimezone: String?
    public var streakThreshold = 0.8
    public var progressWindows = [1, 7, 30, 90]
    public var defaultTargets: [String: Double] = [:]
    public var selfSources: [String] = []
    public var maxRejectFraction = 0.05
    public var maxMemory: String?
    /// The state folder of incremental runs (SPEC §12), relative to the
    /// pipeline file's folder like `input` and `output`.
    public var state: String?
    /// Also publish the HTML report `report/` (SPEC §14; `--html` does the same).
    public var html = false
    /// Digest of the file's bytes (for the manifest).
    public var digest = ""

    static let keys: Set<String> = [
        "name", "input", "output", "default_timezone", "streak_threshold", "progress_windows", "default_targets",
        "self_sources", "max_reject_fraction", "max_memory", "state", "html",
    ]

    public init() {}

    public static func load(path: String) throws -> PipelineConfig {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw DayfoldError(
                .configuration, "\(path): cannot read the pipeline file", fix: "check the path; see Pipelines/README.md"
            )
        }
        var config = try parse(data, path: path)
        // Relative `input`/`output` keys name folders beside the pipeline
        // file (SPEC §10), so a pipeline runs the same from any directory.
        let folder = (path as NSString).deletingLastPathComponent
        config.input = config.input.map { resolve($0, against: folder) }
        config.output = config.output.map { resolve($0, against: folder) }
        config.state = config.state.map { resolve($0, against: folder) }
        return config
    }

    /// `path` as seen from the current directory when it is relative to `folder`.
    static func resolve(_ path: String, against folder: String) -> String {
        guard !path.hasPrefix("/"), !folder.isEmpty else { return path }
        return (folder as NSString).appendingPathComponent(path)
    }

    public static func parse(_ data: Data, path: String) throws -> PipelineConfig {
        func bad(_ message: String) -> DayfoldError {
            DayfoldError(.configuration, "\(path): \(message)", fix: "see Pipelines/README.md for every key")
        }
        guard let object = try? JSONSerialization.jsonObject(with: data), let json = object as? [String: Any] else {
            throw bad("not a JSON object")
        }
        if let unknown = json.keys.filter({ !keys.contains($0) }).sorted().first {
            throw bad("unknown key \"\(unknown)\"")
        }
        var config = PipelineConfig()
        config.digest = SHA256Hasher.hex(String(decoding: data, as: UTF8.self))
        func string(_ key: String) throws -> String? {
            guard let value = json[key], !(value is NSNull) else { return nil }
            guard let text = value as? String else { throw bad("\"\(key)\" must be a string") }
            return text
        }
        func number(_ key: String) throws -> Double? {
            guard let value = json[key], !(value is NSNull) else { return nil }
            guard let number = value as? NSNumber else { throw bad("\"\(key)\" must be a number") }
            return number.doubleValue
        }
        config.name = try string("name") ?? "adhoc"
        config.input = try string("input")
        config.output = try string("output")
        config.defaultTimezone = try string("default_timezone")
        if let zone = config.defaultTimezone, !ZoneCatalog.isKnown(zone) {
            throw bad("\"default_timezone\": unknown time zone \"\(zone)\"")
        }
        config.streakThreshold = try number("streak_threshold") ?? 0.8
        guard (0...1).contains(config.streakThreshold) else {
            throw bad("\"streak_threshold\" must be between 0 and 1")
        }
        if let windows = json["progress_windows"] {
            guard let list = windows as? [NSNumber], !list.isEmpty,
                list.allSatisfy({
                    $0.doubleValue >= 1 && $0.doubleValue <= 100_000 && $0.doubleValue == $0.doubleValue.rounded()
                })
            else { throw bad("\"progress_windows\" must be a list of whole numbers of days from 1 to 100000") }
            config.progressWindows = list.map(\.intValue)
        }
        if let targets = json["default_targets"] {
            guard let map = targets as? [String: Any] else { throw bad("\"default_targets\" must be an object") }
            for (metric, value) in map {
                guard Metric(rawValue: metric) != nil else {
                    throw bad("\"default_targets\": unknown metric \"\(metric)\"")
                }
                guard let number = value as? NSNumber else {
                    throw bad("\"default_targets\".\(metric) must be a number")
                }
                config.defaultTargets[metric] = number.doubleValue
            }
        }
        if let sources = json["self_sources"] {
            guard let list = sources as? [String] else { throw bad("\"self_sources\" must be a list of strings") }
            config.selfSources = list
        }
        config.maxRejectFraction = try number("max_reject_fraction") ?? 0.05
        guard (0...1).contains(config.maxRejectFraction) else {
            throw bad("\"max_reject_fraction\" must be between 0 and 1")
        }
        config.maxMemory = try string("max_memory")
        config.state = try string("state")
        if let html = json["html"], !(html is NSNull) {
            guard let flag = html as? Bool else {
                throw bad("\"html\" must be true or false")
            }
            config.html = flag
        }
        if let memory = config.maxMemory, parseByteSize(memory) == nil {
            throw bad("\"max_memory\": cannot read \"\(memory)\" (use e.g. \"512M\" or \"2G\")")
        }
        return config
    }
}

/// "512M", "2G", "1048576" → bytes.
public func parseByteSize(_ text: String) -> Int64? {
    let units: [Character: Int64] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40]
    var digitsText = text.uppercased()
    if digitsText.hasSuffix("B") { digitsText.removeLast() }
    var scale: Int64 = 1
    if let last = digitsText.last, let unit = units[last] {
        scale = unit
        digitsText.removeLast()
    }
    guard let value = Int64(digitsText), value > 0 else { return nil }
    let (bytes, overflow) = value.multipliedReportingOverflow(by: scale)
    return overflow ? nil : bytes
}

/// Parses an `--as-of` instant (same forms as the drop's instants).
public func parseAsOf(_ text: String) -> ParsedInstant? {
    let bytes = Array(text.utf8)
    return InstantParser.parse(bytes, 0, bytes.count)
}
