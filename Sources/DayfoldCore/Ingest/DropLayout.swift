import Foundation

/// The files of an export drop, by folder, each folder in lexicographic path
/// order ("file order", SPEC §1).
public struct DropLayout: Sendable {
    public struct File: Sendable {
        public var relativePath: String
        public var absolutePath: String
    }

    public var root: String
    public var relationships: File?
    public var timezones: File?
    public var goals: File?
    public var preferences: File?
    public var instances: [File] = []
    public var statusEvents: [File] = []
    public var valueEntries: [File] = []
    public var infoCards: [File] = []
    public var workoutLogs: [File] = []
    public var journal: [File] = []
    public var healthCSV: [File] = []
    /// Apple Health exports: user id (the folder name) and file.
    public var healthXML: [(user: String, file: File)] = []

    public init(root given: String) throws {
        // Absolute paths: a partitioned run links subject files into its
        // spill folders, and a link to a relative path would point nowhere.
        let root =
            given.hasPrefix("/")
            ? given : (FileManager.default.currentDirectoryPath as NSString).appendingPathComponent(given)
        self.root = root
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw DayfoldError(
                .usage, "drop directory not found: \(root)",
                fix: "pass the folder that holds subjects/, tasks/, journal/ and health/")
        }
        func files(_ folder: String, _ accept: (String) -> Bool) -> [File] {
            let directory = (root as NSString).appendingPathComponent(folder)
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }
            return names.filter(accept).sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }.compactMap {
                name in
                let absolute = (directory as NSString).appendingPathComponent(name)
                var isDir: ObjCBool = false
                guard FileManager.default.fileExists(atPath: absolute, isDirectory: &isDir), !isDir.boolValue else {
                    return nil
                }
                return File(relativePath: folder + "/" + name, absolutePath: absolute)
            }
        }
        let isCSV: (String) -> Bool = { $0.hasSuffix(".csv") || $0.hasSuffix(".csv.zst") }
        func subject(_ base: String) -> File? {
            files("subjects") { $0 == base + ".csv" || $0 == base + ".csv.zst" }.last
        }
        relationships = subject("relationships")
        timezones = subject("timezones")
        goals = subject("goals")
        preferences = subject("preferences")
        instances = files("tasks/instances", isCSV)
        statusEvents = files("tasks/status_events", isCSV)
        valueEntries = files("tasks/value_entries", isCSV)
        infoCards = files("tasks/info_cards", isCSV)
        workoutLogs = files("tasks/workout_logs", isCSV)
        journal = files("journal") { isCSV($0) || $0.hasSuffix(".sqlite") }
        healthCSV = files("health", isCSV)
        let healthDirectory = (root as NSString).appendingPathComponent("health")
        let users = ((try? FileManager.default.contentsOfDirectory(atPath: healthDirectory)) ?? [])
            .sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
        for user in users {
            var isDir: ObjCBool = false
            let path = (healthDirectory as NSString).appendingPathComponent(user)
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir), isDir.boolValue else { continue }
            for file in files("health/" + user, { $0.hasSuffix(".xml") || $0.hasSuffix(".xml.zst") }) {
                healthXML.append((user, file))
            }
            healthCSV += files("health/" + user, isCSV)
        }
    }

    /// Bytes on disk of a file of the drop (0 when it cannot be read).
    public func size(of relativePath: String) -> Int64 {
        let path = (root as NSString).appendingPathComponent(relativePath)
        return ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.int64Value ?? 0
    }

    /// Bytes on disk of every input file.
    public var totalBytes: Int64 { allFiles.reduce(0) { $0 + size(of: $1.relativePath) } }

    public var hasTaskFiles: Bool {
        !(instances.isEmpty && statusEvents.isEmpty && valueEntries.isEmpty && infoCards.isEmpty && workoutLogs.isEmpty)
    }

    /// Every input file in the order ingest reads them (the manifest's order).
    public var readingOrder: [File] {
        var list = [relationships, timezones, goals, preferences].compactMap { $0 }
        list += instances + workoutLogs + statusEvents + valueEntries + infoCards + journal + healthCSV
        list += healthXML.map(\.file)
        return list
    }

    /// Every input file.
    public var allFiles: [File] {
        var list = [relationships, timezones, goals, preferences].compactMap { $0 }
        list += instances + statusEvents + valueEntries + infoCards + workoutLogs + journal + healthCSV
        list += healthXML.map(\.file)
        return list
    }
}
