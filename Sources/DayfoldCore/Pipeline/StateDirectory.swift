import Foundation

/// The `--state DIR` folder (SPEC §12): where a run's `RunState` is kept.
///
/// dayfold owns one entry in it, `dayfold-state.json` (and, while it is
/// being replaced, a temporary beside it): anything else in the folder is
/// left alone. The state is replaced by a rename after the outputs are
/// published, so a run killed at any point leaves the previous state whole
/// — and since a state only says what the drop's files held, a previous
/// state is still right for the next run whatever the outputs are.
public struct StateDirectory: Sendable {
    public static let fileName = "dayfold-state.json"

    /// The resolved folder (it may not exist yet: the first save creates it).
    public let path: String

    /// Checks `path` against the drop and the output: the state must live
    /// outside both (inside the drop it would be read as an input; inside
    /// the output a publish would replace it). A usage error (exit 2) names
    /// the reason and a fix.
    public init(path: String, drop: String, output: String) throws {
        func refuse(_ reason: String) -> DayfoldError {
            DayfoldError(
                .usage, "--state \(path): \(reason)",
                fix: "give a folder of its own for the state, e.g. --state Outputs/.state/<pipeline>")
        }
        let working = FileManager.default.currentDirectoryPath
        func absolute(_ text: String) -> String {
            let trimmed = text.count > 1 && text.hasSuffix("/") ? String(text.dropLast()) : text
            return trimmed.hasPrefix("/") ? trimmed : (working as NSString).appendingPathComponent(trimmed)
        }
        guard !path.isEmpty else { throw refuse("an empty path") }
        let requested = absolute(path)
        let resolved: String
        if let real = OutputTarget.realPath(requested) {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: real, isDirectory: &isDirectory), isDirectory.boolValue
            else { throw refuse("a file, not a folder") }
            resolved = real
        } else {
            let parent = (requested as NSString).deletingLastPathComponent
            guard let realParent = OutputTarget.realPath(parent) else {
                throw refuse("its parent folder \(parent) does not exist")
            }
            resolved = (realParent as NSString).appendingPathComponent((requested as NSString).lastPathComponent)
        }
        for (name, other) in [("input drop", drop), ("output", output)] {
            let real = OutputTarget.realPath(absolute(other)) ?? absolute(other)
            if resolved == real || OutputTarget.isInside(resolved, real) || OutputTarget.isInside(real, resolved) {
                throw refuse("it overlaps the \(name) \(real)")
            }
        }
        self.path = resolved
    }

    var filePath: String { (path as NSString).appendingPathComponent(StateDirectory.fileName) }

    /// What a run found in the folder.
    public enum Loaded: Sendable, Equatable {
        /// A state a run of this pipeline may use.
        case usable(RunState)
        /// None to use, and why: the run is a full one and says so.
        case doubted(String)
    }

    /// The state, or why there is none to use for a run of `configDigest`.
    public func load(configDigest: String) -> Loaded {
        removeStaleTemporaries()
        guard FileManager.default.fileExists(atPath: filePath) else {
            return .doubted("no state in \(path) yet (the first run with it)")
        }
        guard let data = FileManager.default.contents(atPath: filePath) else {
            return .doubted("the state file \(filePath) cannot be read")
        }
        let state: RunState
        do {
            state = try RunState.decode(data)
        } catch {
            return .doubted(error.reason)
        }
        if let doubt = state.doubt(configDigest: configDigest) { return .doubted(doubt) }
        return .usable(state)
    }

    /// Replaces the state: written beside the old one, flushed, renamed over it.
    public func save(_ state: RunState) throws {
        do {
            try makeFolder()
            let temporary = (path as NSString).appendingPathComponent(
                StateDirectory.temporaryName(SystemCall.processID))
            try SystemCall.writeSynced(Array(state.encoded().utf8), to: temporary)
            try SystemCall.rename(temporary, filePath)
            try SystemCall.sync(path)
        } catch {
            throw DayfoldError(
                .output, "saving the state in \(path) failed: \(error)",
                fix: "the outputs are published; the next run with this state will be a full one")
        }
    }

    /// Creates the folder when it does not exist yet (its parent must).
    func makeFolder() throws(SystemCallError) {
        var isDirectory: ObjCBool = false
        if !FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            try SystemCall.makeDirectory(path)
        }
    }

    static func temporaryName(_ pid: Int32) -> String { ".\(fileName).\(pid).tmp" }

    /// A temporary left by a killed run (its process is gone) is removed;
    /// one of a live run is not.
    private func removeStaleTemporaries() {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: path) else { return }
        for entry in entries where entry.hasPrefix(".\(StateDirectory.fileName).") && entry.hasSuffix(".tmp") {
            let pidText = entry.dropFirst(StateDirectory.fileName.count + 2).dropLast(4)
            guard let pid = Int32(pidText), entry == StateDirectory.temporaryName(pid), !SystemCall.isAlive(pid)
            else { continue }
            try? FileManager.default.removeItem(atPath: (path as NSString).appendingPathComponent(entry))
        }
    }
}
