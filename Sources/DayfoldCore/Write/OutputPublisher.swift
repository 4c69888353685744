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
        staging = target.parent + "/" + OutputPublisher.temporaryName(name, "tmp", getpid())
        old = target.parent + "/" + OutputPublisher.temporaryName(name, "old", getpid())
        OutputPublisher.recoverAbandoned(parent: target.parent, name: name)
        try? FileManager.default.removeItem(atPath: staging)  // only a run of this very pid named it so
        guard mkdir(staging, 0o777) == 0 else { throw OutputTarget.cannotWrite(target.parent, errno) }
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
            guard rename(destination, old) == 0 else {
                throw DayfoldError(
                    .output,
                    "cannot move the previous outputs \(destination) aside: \(String(cString: strerror(errno)))",
                    fix: "check that \((destination as NSString).deletingLastPathComponent) is writable")
            }
        }
        guard rename(staging, destination) == 0 else {
            let reason = String(cString: strerror(errno))
            if exists && rename(old, destination) != 0 {
                throw DayfoldError(
                    .output,
                    "cannot publish \(destination): \(reason); the previous outputs are kept at \(old) "
                        + "(putting them back failed: \(String(cString: strerror(errno))))",
                    fix: "rename \(old) to \(destination)")
            }
            throw DayfoldError(.output, "cannot publish \(destination): \(reason)")
        }
        var warnings: [String] = []
        let parent = (destination as NSString).deletingLastPathComponent
        if let failure = OutputPublisher.syncFile(parent) {
            warnings.append("published, but syncing \(parent) failed (\(failure)): a power loss may undo the publish")
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
            if pid == getpid() || kill(pid, 0) == 0 || errno == EPERM { continue }  // a live run owns it
            let path = parent + "/" + entry
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue,
                let contents = try? FileManager.default.contentsOfDirectory(atPath: path)
            else { continue }
            if isOld && !FileManager.default.fileExists(atPath: destination) {
                _ = rename(path, destination)  // a failure leaves it where it was, for the next run
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
            if let failure = OutputPublisher.syncFile(root + "/" + relative) {
                throw DayfoldError(.output, "cannot sync \(root)/\(relative): \(failure)", fix: "check free disk space")
            }
        }
        if let failure = OutputPublisher.syncFile(root) {
            throw DayfoldError(.output, "cannot sync \(root): \(failure)", fix: "check free disk space")
        }
    }

    /// fsyncs a file or folder; the reason when that failed.
    private static func syncFile(_ path: String) -> String? {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return String(cString: strerror(errno)) }
        defer { close(fd) }
        // EINVAL: the file system cannot sync this kind of file; nothing was lost.
        guard fsync(fd) == 0 || errno == EINVAL else { return String(cString: strerror(errno)) }
        return nil
    }
}
