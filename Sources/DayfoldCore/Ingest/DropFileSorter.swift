import Foundation

/// Sorts the walked files of a drop into the folders of SPEC §1 (a
/// `DropLayout`), the files that are not read (with their reason), the ones
/// whose place makes a run impossible, and the Apple Health exports placed
/// directly in `health/`.
struct DropFileSorter {
    let root: String
    let isPartition: Bool
    private(set) var layout: DropLayout
    /// Entries not read that stand where a task, journal or subject file would (the run fails).
    private(set) var unreadable: [DropLayout.UnrecognizedFile] = []
    /// Apple Health exports with no user folder (`health/export.zip`): a usage error.
    private(set) var misplacedHealthExports: [String] = []
    private var subjectCandidates: [String: [DropLayout.File]] = [:]
    private var rootHealthCSV: [DropLayout.File] = []
    private var userHealthCSV: [DropLayout.File] = []

    init(root: String, isPartition: Bool) {
        self.root = root
        self.isPartition = isPartition
        layout = DropLayout(uncheckedRoot: root)
    }

    func isCSV(_ name: String) -> Bool {
        name.hasSuffix(".csv") || name.hasSuffix(".csv.zst") || name.hasSuffix(".csv.gz")
            || (isPartition && name.hasSuffix(".csv.gz.zst"))
    }

    static func isHealthXML(_ name: String) -> Bool {
        name.hasSuffix(".xml") || name.hasSuffix(".xml.zst") || name.hasSuffix(".xml.gz")
    }

    static func isAppleHealthExport(_ name: String) -> Bool { isHealthXML(name) || name.hasSuffix(".zip") }

    /// The subject a file name is a form of (`relationships.csv.zst` → relationships).
    func subject(of name: String) -> String? {
        guard isCSV(name), let base = name.split(separator: ".", maxSplits: 1).first else { return nil }
        let text = String(base)
        return DropLayout.subjectNames.contains(text) && name.hasPrefix(text + ".csv") ? text : nil
    }

    /// Whether a file at `names` would be read as a task, journal or subject
    /// file: one that cannot be read there fails the run.
    func isTrustedPlace(_ names: [String]) -> Bool {
        switch names.count {
        case 2 where names[0] == "subjects": return subject(of: names[1]) != nil
        case 2 where names[0] == "journal": return isCSV(names[1]) || names[1].hasSuffix(".sqlite")
        case 3 where names[0] == "tasks": return DropLayout.taskFolders.contains(names[1]) && isCSV(names[2])
        case 3 where names[0] == "push": return DropLayout.pushFolders.contains(names[1]) && isCSV(names[2])
        default: return false
        }
    }

    mutating func add(_ found: DropWalk.Found) {
        let decoded = found.components.map { String(validating: $0, as: UTF8.self) }
        let names = found.components.map { String(decoding: $0, as: UTF8.self) }
        let shown = found.components.map(DropFileSorter.shownName).joined(separator: "/")
        var problem = found.problem
        if problem == nil && decoded.contains(where: { $0 == nil }) { problem = "name is not valid UTF-8" }
        if let problem {
            let entry = DropLayout.UnrecognizedFile(path: shown, reason: problem)
            layout.unrecognizedFiles.append(entry)
            if isTrustedPlace(names) { unreadable.append(entry) }
            return
        }
        let relative = names.joined(separator: "/")
        let file = DropLayout.File(
            relativePath: relative, absolutePath: (root as NSString).appendingPathComponent(relative))
        func unrecognized(_ reason: String) {
            layout.unrecognizedFiles.append(DropLayout.UnrecognizedFile(path: shown, reason: reason))
        }
        let name = names[names.count - 1]
        switch names.count {
        case 1 where name == "dayfold-shard.json":
            break  // a shard drop's marker (SPEC §13), read by the run itself
        case 1:
            unrecognized("not in a folder of the drop layout (subjects/, tasks/, journal/, health/, push/)")
        case 2 where names[0] == "subjects":
            if let subject = subject(of: name) {
                subjectCandidates[subject, default: []].append(file)
            } else {
                unrecognized(
                    "not a subjects file (relationships, timezones, goals, preferences, notification_preferences .csv)")
            }
        case 3 where names[0] == "tasks" && DropLayout.taskFolders.contains(names[1]):
            guard isCSV(name) else { return unrecognized("not a CSV export (.csv, .csv.zst, .csv.gz)") }
            switch names[1] {
            case "instances": layout.instances.append(file)
            case "status_events": layout.statusEvents.append(file)
            case "value_entries": layout.valueEntries.append(file)
            case "info_cards": layout.infoCards.append(file)
            default: layout.workoutLogs.append(file)
            }
        case 3 where names[0] == "push" && DropLayout.pushFolders.contains(names[1]):
            guard isCSV(name) else { return unrecognized("not a CSV export (.csv, .csv.zst, .csv.gz)") }
            switch names[1] {
            case "installations": layout.pushInstallations.append(file)
            case "intents": layout.pushIntents.append(file)
            case "deliveries": layout.pushDeliveries.append(file)
            default: layout.pushReceipts.append(file)
            }
        case 2 where names[0] == "journal":
            guard isCSV(name) || name.hasSuffix(".sqlite") else {
                return unrecognized("not a journal export (.csv, .csv.zst, .csv.gz, .sqlite)")
            }
            layout.journal.append(file)
        case 2 where names[0] == "health":
            if isCSV(name) {
                rootHealthCSV.append(file)
            } else if DropFileSorter.isAppleHealthExport(name) {
                misplacedHealthExports.append(relative)
            } else {
                unrecognized("not a health export (.csv, or health/<user_id>/export.xml or export.zip)")
            }
        case 3 where names[0] == "health":
            if names[1] == "apple_health_export" && DropFileSorter.isAppleHealthExport(name) {
                // The unzipped archive put in health/ itself: the folder is no user.
                misplacedHealthExports.append(relative)
            } else if isCSV(name) {
                userHealthCSV.append(file)
                noteUserFolder(names[1])
            } else if DropFileSorter.isAppleHealthExport(name) {
                layout.healthXML.append((names[1], file))
                noteUserFolder(names[1])
            } else {
                unrecognized("not a health export (.csv, .xml, .xml.zst or the Health app's .zip)")
            }
        case 4... where names[0] == "health" && names[2] == "apple_health_export":
            if names.count == 4 && DropFileSorter.isHealthXML(name) {
                layout.healthXML.append((names[1], file))
                noteUserFolder(names[1])
            } else {
                layout.healthExportParts[names[0...2].joined(separator: "/"), default: []].append(file)
            }
        default:
            unrecognized("not in a folder of the drop layout")
        }
    }

    private mutating func noteUserFolder(_ name: String) {
        if layout.healthUserFolders.last != name { layout.healthUserFolders.append(name) }
    }

    /// The finished layout (subjects chosen, health CSV in their reading order).
    var finished: DropLayout {
        var result = layout
        for subject in DropLayout.subjectNames {
            guard let forms = subjectCandidates[subject], let chosen = forms.last else { continue }
            for other in forms.dropLast() {
                result.unrecognizedFiles.append(
                    DropLayout.UnrecognizedFile(
                        path: other.relativePath, reason: "another form of it is read: \(chosen.relativePath)"))
            }
            switch subject {
            case "relationships": result.relationships = chosen
            case "timezones": result.timezones = chosen
            case "goals": result.goals = chosen
            case "notification_preferences": result.notificationPreferences = chosen
            default: result.preferences = chosen
            }
        }
        result.healthCSV = rootHealthCSV + userHealthCSV
        result.unrecognizedFiles.sort { bytesLess($0.path, $1.path) }
        return result
    }

    /// A name as the manifest shows it: bytes that are not UTF-8 and control
    /// characters written `\xNN` (a backslash `\\`), cut to 64 bytes, so no
    /// name can carry text out of the drop through the manifest.
    static func shownName(_ bytes: [UInt8]) -> String {
        var text = ""
        var index = 0
        while index < bytes.count {
            let length = utf8Length(bytes, index)
            if length == 0 {
                text += hex(bytes[index])
                index += 1
                continue
            }
            let scalar = String(decoding: bytes[index..<index + length], as: UTF8.self)
            if length == 1 && (bytes[index] < 0x20 || bytes[index] == 0x7F) {
                text += hex(bytes[index])
            } else if bytes[index] == 0x5C {
                text += "\\\\"
            } else {
                text += scalar
            }
            index += length
        }
        var cut = ""
        for character in text {
            if cut.utf8.count + String(character).utf8.count > 64 { return cut + "…" }
            cut.append(character)
        }
        return cut
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return "\\x" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 15)])
    }

    /// The length of the valid UTF-8 sequence at `index`, 0 when none starts there.
    private static func utf8Length(_ bytes: [UInt8], _ index: Int) -> Int {
        let lead = bytes[index]
        let length: Int
        switch lead {
        case 0x00...0x7F: return 1
        case 0xC2...0xDF: length = 2
        case 0xE0...0xEF: length = 3
        case 0xF0...0xF4: length = 4
        default: return 0
        }
        guard index + length <= bytes.count else { return 0 }
        return String(validating: bytes[index..<index + length], as: UTF8.self) == nil ? 0 : length
    }
}

extension DropLayout {
    /// An empty layout of `root` (the sorter fills it).
    init(uncheckedRoot root: String) { self.root = root }
}
