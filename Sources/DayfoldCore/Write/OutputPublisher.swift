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
        try? FileManager.default.removeItem(atPath: staging)
        do {
            try FileManager.default.createDirectory(atPath: staging, withIntermediateDirectories: true)
        } catch {
            throw DayfoldError(.output, "cannot create \(staging): \(error.localizedDescription)", fix: "check that the output folder is writable")
        }
    }

    /// Path of a file inside the staging directory.
    public func path(_ relative: String) -> String { staging + "/" + relative }

    /// fsyncs every staged file, then swaps the staging directory into place.
    public func publish() throws {
        try syncTree(staging)
        let old = destination + ".old-\(getpid())"
        let exists = FileManager.default.fileExists(atPath: destination)
        if exists {
            guard rename(destination, old) == 0 else {
                throw DayfoldError(.output, "cannot move the previous outputs aside: \(String(cString: strerror(errno)))")
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
