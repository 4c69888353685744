import Foundation

/// The files of an export drop, by folder, each folder in lexicographic path
/// order ("file order", SPEC §1).
///
/// The whole drop is walked (SPEC §10 "No file is skipped silently"): every
/// regular file is either one of the lists below or in `unrecognizedFiles`
/// with the reason it is not read. Only regular files are read: a symbolic
/// link is followed when its target lies inside the drop (or with
/// `Options.followLinks`); a link that leaves the drop, dangles or loops, a
/// FIFO, socket or device, and a name that is not UTF-8 are listed, never
/// opened — and when one stands where a task, journal or subject file would,
/// the drop cannot be trusted and the run fails (an unreadable file of §9).
public struct DropLayout: Sendable {
    public struct File: Sendable {
        public var relativePath: String
        public var absolutePath: String
    }

    /// A file under the drop that is not read, and why (the manifest's `unrecognized_files`).
    public struct UnrecognizedFile: Sendable, Equatable, Codable {
        /// Relative to the drop; bytes that are not UTF-8 (or are control
        /// characters) written `\xNN`, each name cut to 64 bytes.
        public var path: String
        public var reason: String
    }

    /// How the drop is walked.
    public struct Options: Sendable {
        /// Follow symbolic links whatever their target (`--follow-links`).
        public var followLinks = false
        /// A partition's drop (`PartitionRouter`): its files are links to the
        /// original drop, its CSV spill is `<original name>.zst`, and a
        /// partition may hold no file at all.
        var isPartition = false

        public init(followLinks: Bool = false) { self.followLinks = followLinks }
    }

    public var root: String
    public var relationships: File?
    public var timezones: File?
    public var goals: File?
    public var preferences: File?
    /// subjects/notification_preferences.csv (SPEC §11.1).
    public var notificationPreferences: File?
    public var instances: [File] = []
    public var statusEvents: [File] = []
    public var valueEntries: [File] = []
    public var infoCards: [File] = []
    public var workoutLogs: [File] = []
    public var journal: [File] = []
    public var healthCSV: [File] = []
    /// Apple Health exports: user id (the folder name) and file (`*.xml`,
    /// `*.xml.zst`, `*.xml.gz`, or the Health app's `*.zip` archive; also the
    /// `*.xml` of an unzipped `apple_health_export/` folder).
    public var healthXML: [(user: String, file: File)] = []
    /// The other files of each unzipped `health/<user_id>/apple_health_export/`
    /// folder (workout routes, ECGs…), by the folder's relative path: skipped
    /// and counted on the export's account, as the same entries of the zip are.
    public var healthExportParts: [String: [File]] = [:]
    /// The `health/<name>/` folders that hold a file read (for the warning on
    /// a name that is no `client_user_id`).
    public var healthUserFolders: [String] = []
    /// The push exports (SPEC §11.1), each folder in file order.
    public var pushInstallations: [File] = []
    public var pushIntents: [File] = []
    public var pushDeliveries: [File] = []
    public var pushReceipts: [File] = []
    /// Whether the drop has a `push/` folder: with one, every push output is
    /// written (header only when it holds no rows); without, none is.
    public var hasPushFolder = false
    /// Files that are not read, in path order (SPEC §10).
    public var unrecognizedFiles: [UnrecognizedFile] = []

    /// The task folders and the list each fills.
    static let taskFolders = ["instances", "status_events", "value_entries", "info_cards", "workout_logs"]
    static let subjectNames = ["relationships", "timezones", "goals", "preferences", "notification_preferences"]
    /// The folders of `push/` (SPEC §11.1).
    static let pushFolders = ["installations", "intents", "deliveries", "receipts"]
    /// The folders SPEC §1 names (for the message on a drop without any of them).
    static let lookedFor =
        "subjects/, tasks/instances/, tasks/status_events/, tasks/value_entries/, tasks/info_cards/, "
        + "tasks/workout_logs/, journal/, health/, push/"

    public init(root given: String, options: Options = Options()) throws {
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
        let hasLayoutFolder = ["subjects", "tasks", "journal", "health", "push"].contains { folder in
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(
                atPath: (root as NSString).appendingPathComponent(folder), isDirectory: &isFolder)
                && isFolder.boolValue
        }
        // Without any folder of the layout there is nothing to walk (and the
        // folder given may be a home directory): refused before any walking.
        if !hasLayoutFolder && !options.isPartition { throw DropLayout.noExportFiles(root) }
        let walk = DropWalk(root: root, followLinks: options.followLinks || options.isPartition)
        var sorter = DropFileSorter(root: root, isPartition: options.isPartition)
        for found in walk.run() { sorter.add(found) }
        if !sorter.misplacedHealthExports.isEmpty {
            let names = sorter.misplacedHealthExports.joined(separator: ", ")
            throw DayfoldError(
                .usage, "\(names): an Apple Health export directly in health/ names no user",
                fix: "put it in health/<user_id>/ (the folder's name is the user id), e.g. health/u1/export.zip")
        }
        if !sorter.unreadable.isEmpty {
            let list = sorter.unreadable.map { "\($0.path): cannot read: \($0.reason)" }.joined(separator: "; ")
            throw DayfoldError(
                .input, list,
                fix: "only regular files inside the drop are read: put the exported file itself there"
                    + (options.followLinks ? "" : " (or pass --follow-links for links that leave the drop)"))
        }
        self = sorter.finished
        var isPushFolder: ObjCBool = false
        hasPushFolder =
            FileManager.default.fileExists(
                atPath: (root as NSString).appendingPathComponent("push"), isDirectory: &isPushFolder)
            && isPushFolder.boolValue
        if !options.isPartition && readingOrder.isEmpty { throw DropLayout.noExportFiles(root) }
    }

    /// The error for a folder holding no file of SPEC §1's layout (the
    /// previous outputs stay untouched: nothing has been written yet).
    static func noExportFiles(_ root: String) -> DayfoldError {
        var fix = "pass the drop folder itself, the one that holds subjects/ and tasks/"
        let children = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        let drops = children.sorted(by: bytesLess).filter { child in
            var isFolder: ObjCBool = false
            let subjects = ((root as NSString).appendingPathComponent(child) as NSString).appendingPathComponent(
                "subjects")
            return FileManager.default.fileExists(atPath: subjects, isDirectory: &isFolder) && isFolder.boolValue
        }
        if let first = drops.first { fix += " (did you mean \((root as NSString).appendingPathComponent(first))?)" }
        return DayfoldError(.usage, "no export files under \(root) (looked for \(DropLayout.lookedFor))", fix: fix)
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
        list += [notificationPreferences].compactMap { $0 } + pushFiles
        return list
    }

    /// The push exports in reading order (installations, intents, deliveries, receipts).
    public var pushFiles: [File] { pushInstallations + pushIntents + pushDeliveries + pushReceipts }

    /// Every input file.
    public var allFiles: [File] {
        var list = [relationships, timezones, goals, preferences].compactMap { $0 }
        list += instances + statusEvents + valueEntries + infoCards + workoutLogs + journal + healthCSV
        list += healthXML.map(\.file)
        list += [notificationPreferences].compactMap { $0 } + pushFiles
        return list
    }

    /// One stderr line counting the files not read, the first few named
    /// (nil when every file is read): `dayfold: 3 files not read: health/x.txt (not an export file), …`.
    public static func unrecognizedSummary(_ files: [UnrecognizedFile], naming: Int = 3) -> String? {
        guard !files.isEmpty else { return nil }
        let named = files.prefix(naming).map { "\($0.path) (\($0.reason))" }.joined(separator: ", ")
        let more =
            files.count > naming ? ", and \(files.count - naming) more (see the manifest's unrecognized_files)" : ""
        return "dayfold: \(files.count) file\(files.count == 1 ? "" : "s") not read: \(named)\(more)"
    }
}
