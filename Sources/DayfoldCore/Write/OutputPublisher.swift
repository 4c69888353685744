import Foundation

/// Publishes a run's outputs atomically (SPEC §7): everything is written
/// into a temporary sibling directory, synced, then renamed into place, so
/// readers see the previous complete outputs or the new ones — never a mix.
///
/// Its temporaries are siblings named `.dayfold-<name>.tmp-<pid>` (the
/// staging directory, with the partitioned run's `.spill` inside) and
/// `.dayfold-<name>.old-<pid>` (the previous outputs during the swap), so
/// they can never be taken for a user's folder (SPEC §10).
public struct OutputPublisher: Sendable {
    public let destination: String
    public let staging: String
    private let old: String

    /// Creates the staging directory beside a checked `target`.
    public init(target: OutputTarget) throws {
        destination = target.destination
        let name = (target.destination as NSString).lastPathComponent
        staging = target.parent + "/" + OutputPublisher.temporaryName(name, "tmp", SystemCall.processID)
        old = target.parent + "/" + OutputPublisher.temporaryName(name, "old", SystemCall.processID)
        OutputPublisher.recoverAbandoned(parent: target.parent, name: name)
        try? FileManager.default.removeItem(atPath: staging)  // only a run of this very pid named it so
        do {
            try SystemCall.makeDirectory(staging)
        } catch {
            throw OutputTarget.cannotWrite(target.parent, error)
        }
    }

    /// `.dayfold-<name>.<kind>-<pid>`: a temporary of the run `pid`.
    static func temporaryName(_ name: String, _ kind: String, _ pid: Int32) -> String {
        ".dayfold-\(name).\(kind)-\(pid)"
    }

    /// Path of a file inside the staging directory.
    public func path(_ relative: String) -> String { staging + "/" + relative }

    /// fsyncs every staged file, then swaps the staging directory into place.
    /// Returns warnings for what failed once the new outputs were in place
    /// (the previous outputs could not be removed, the parent not synced):
    /// the publish stands, and the operator hears of it.
    @discardableResult
    public func publish() throws -> [String] {
        try syncTree(staging)
        let exists = FileManager.default.fileExists(atPath: destination)
        if exists {
            do {
                try SystemCall.rename(destination, old)
            } catch {
                throw DayfoldError(
                    .output, "cannot move the previous outputs \(destination) aside: \(error.message)",
                    fix: "check that \((destination as NSString).deletingLastPathComponent) is writable")
            }
        }
        do {
            try SystemCall.rename(staging, destination)
        } catch {
            if exists {
                do {
                    try SystemCall.rename(old, destination)
                } catch let restoring {
                    throw DayfoldError(
                        .output,
                        "cannot publish \(destination): \(error.message); the previous outputs are kept at \(old) "
                            + "(putting them back failed: \(restoring.message))",
                        fix: "rename \(old) to \(destination)")
                }
            }
            throw DayfoldError(.output, "cannot publish \(destination): \(error.message)")
        }
        var warnings: [String] = []
        let parent = (destination as NSString).deletingLastPathComponent
        do {
            try SystemCall.sync(parent)
        } catch {
            warnings.append(
                "published, but syncing \(parent) failed (\(error.message)): a power loss may undo the publish")
        }
        if exists {
            do {
                try FileManager.default.removeItem(atPath: old)
            } catch {
                warnings.append("the previous outputs could not be removed from \(old): \(error.localizedDescription)")
            }
        }
        return warnings
    }

    /// Cleans up beside `parent/name` after runs that were killed: if a run
    /// died between its two renames (the destination is gone, the previous
    /// outputs set aside), they are put back; other temporaries of dead
    /// processes are removed — but only when they hold nothing but
    /// dayfold's own entries, so a folder a user happened to name so, or
    /// filled, is kept.
    static func recoverAbandoned(parent: String, name: String) {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: parent) else { return }
        let destination = parent + "/" + name
        for entry in entries.sorted(by: bytesLess) {
            let isStaging = entry.hasPrefix(".dayfold-" + name + ".tmp-")
            let isOld = entry.hasPrefix(".dayfold-" + name + ".old-")
            guard isStaging || isOld, let pidText = entry.split(separator: "-").last, let pid = Int32(pidText),
                pid > 0, entry == ".dayfold-" + name + (isStaging ? ".tmp-" : ".old-") + pidText
            else { continue }
            if pid == SystemCall.processID || SystemCall.isAlive(pid) { continue }  // a live run owns it
            let path = parent + "/" + entry
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue,
                let contents = try? FileManager.default.contentsOfDirectory(atPath: path)
            else { continue }
            if isOld && !FileManager.default.fileExists(atPath: destination) {
                try? SystemCall.rename(path, destination)  // a failure leaves it where it was, for the next run
            } else if OutputTarget.foreignEntries(contents, allowing: [".spill"]).isEmpty {
                try? FileManager.default.removeItem(atPath: path)
            }
        }
    }

    /// Removes the staging directory after a failure.
    public func abandon() { try? FileManager.default.removeItem(atPath: staging) }

    /// fsyncs every file and folder under `root`, and `root` itself.
    private func syncTree(_ root: String) throws {
        guard let enumerator = FileManager.default.enumerator(atPath: root) else {
            throw DayfoldError(.output, "cannot list the staged outputs in \(root)")
        }
        while let relative = enumerator.nextObject() as? String {
            // A link is not the run's file: its target is synced, if at all, where it lies.
            if enumerator.fileAttributes?[.type] as? FileAttributeType == .typeSymbolicLink { continue }
            try sync(root + "/" + relative)
        }
        try sync(root)
    }

    private func sync(_ path: String) throws {
        do {
            try SystemCall.sync(path)
        } catch {
            throw DayfoldError(.output, "cannot sync \(path): \(error.message)", fix: "check free disk space")
        }
    }
}
