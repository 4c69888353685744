import Foundation

/// Publishes a run's outputs atomically (SPEC §7): everything is written
/// into a temporary sibling directory, synced, then renamed into place, so
/// readers see the previous complete outputs or the new ones — never a mix.
public struct OutputPublisher {
    public let destination: String
    public let staging: String

    public init(destination: String) throws {
        let url = URL(fileURLWithPath: destination).standardizedFileURL
        self.destination = url.path
        let parent = url.deletingLastPathComponent().path
        do {
            try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        } catch {
            throw DayfoldError(.output, "cannot create \(parent): \(error.localizedDescription)")
        }
        staging = parent + "/." + url.lastPathComponent + ".tmp-\(getpid())"
        OutputPublisher.recoverAbandoned(parent: parent, name: url.lastPathComponent, destination: url.path)
        try? FileManager.default.removeItem(atPath: staging)
        do {
            try FileManager.default.createDirectory(atPath: staging, withIntermediateDirectories: true)
        } catch {
            throw DayfoldError(
                .output, "cannot create \(staging): \(error.localizedDescription)",
                fix: "check that the output folder is writable")
        }
    }

    /// Path of a file inside the staging directory.
    public func path(_ relative: String) -> String { staging + "/" + relative }

    /// fsyncs every staged file, then swaps the staging directory into place.
    public func publish() throws {
        try syncTree(staging)
        let old =
            (destination as NSString).deletingLastPathComponent + "/." + (destination as NSString).lastPathComponent
            + ".old-\(getpid())"
        let exists = FileManager.default.fileExists(atPath: destination)
        if exists {
            guard rename(destination, old) == 0 else {
                throw DayfoldError(
                    .output, "cannot move the previous outputs aside: \(String(cString: strerror(errno)))")
            }
        }
        guard rename(staging, destination) == 0 else {
            let reason = String(cString: strerror(errno))
            if exists { _ = rename(old, destination) }
            throw DayfoldError(.output, "cannot publish \(destination): \(reason)")
        }
        syncDirectory((destination as NSString).deletingLastPathComponent)
        if exists { try? FileManager.default.removeItem(atPath: old) }
    }

    /// Cleans up after runs that were killed: staging directories of dead
    /// processes are removed; if a run died between its two renames (the
    /// destination is gone, the previous outputs set aside), they are put back.
    static func recoverAbandoned(parent: String, name: String, destination: String) {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: parent) else { return }
        for entry in entries.sorted() {
            let isStaging = entry.hasPrefix("." + name + ".tmp-")
            let isOld = entry.hasPrefix("." + name + ".old-")
            guard isStaging || isOld, let pid = Int32(entry.split(separator: "-").last ?? "") else { continue }
            if pid == getpid() || kill(pid, 0) == 0 { continue }  // a live run owns it
            let path = parent + "/" + entry
            if isOld && !FileManager.default.fileExists(atPath: destination) {
                _ = rename(path, destination)
            } else {
                try? FileManager.default.removeItem(atPath: path)
            }
        }
    }

    /// Removes the staging directory after a failure.
    public func abandon() { try? FileManager.default.removeItem(atPath: staging) }

    private func syncTree(_ root: String) throws {
        guard let enumerator = FileManager.default.enumerator(atPath: root) else { return }
        while let relative = enumerator.nextObject() as? String {
            let fd = open(root + "/" + relative, O_RDONLY)
            if fd >= 0 {
                fsync(fd)
                close(fd)
            }
        }
        syncDirectory(root)
    }

    private func syncDirectory(_ path: String) {
        let fd = open(path, O_RDONLY)
        if fd >= 0 {
            fsync(fd)
            close(fd)
        }
    }
}
