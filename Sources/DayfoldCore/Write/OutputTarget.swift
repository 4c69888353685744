import Foundation

/// The output directory of a run, checked before any work (SPEC §10): a
/// publish replaces the whole directory, so dayfold only accepts a path that
/// is new, an empty directory, or a previous dayfold publish holding nothing
/// but dayfold's own entries. Everything else is refused with exit 2 and not
/// one byte is changed: a user's folder, the drop, a folder holding the drop,
/// `.` or `/` would otherwise be replaced by the outputs.
///
/// Paths are compared by their resolved real paths, so a symbolic link or a
/// `..` cannot make the drop look like somewhere else.
public struct OutputTarget: Sendable {
    /// What is at the destination before the run.
    public enum State: Sendable, Equatable {
        case new, empty, previousPublish
    }

    /// The resolved real path the outputs are published at.
    public let destination: String
    /// The directory that holds `destination` (its temporaries go there too).
    public let parent: String
    public let state: State

    /// The top-level entries dayfold writes into an output directory:
    /// `debug/` comes from `--debug-tables`; `history/` and `report/` are
    /// the incremental runs' and the HTML report's folders; `parts/` a shard
    /// run's (SPEC §13); `.dayfold-attempts/` the work area of a sharded job
    /// (`Integrations/spark/dayfold_spark.py`: the shards and every shard
    /// run's attempt), which the merged publish replaces with the rest.
    public static let ownEntries: Set<String> = [
        "snapshots", "reports", "rejects", "history", "report", "debug", "parts", "manifest.json",
        workArea,
    ]

    /// The sharded job's work area inside its output (see `ownEntries`): a
    /// drop or shard output inside it may be read by a run publishing to
    /// the output that holds it, since the publish is what retires it.
    public static let workArea = ".dayfold-attempts"

    /// The file a sharded job's driver writes first into its work area, so
    /// an output folder holding only that area (the job's first run, or one
    /// that failed) is known as dayfold's.
    public static let workAreaMarker = "dayfold-job.json"

    static func isJobWorkArea(_ folder: String, _ entries: [String]) -> Bool {
        entries == [workArea]
            && FileManager.default.fileExists(atPath: folder + "/" + workArea + "/" + workAreaMarker)
    }

    /// Checks `output` against the drop at `drop` and the working directory;
    /// throws a usage error (exit 2) naming the reason and a fix. A stale
    /// temporary of an earlier run beside the destination is cleaned first
    /// (see `OutputPublisher.recoverAbandoned`).
    public init(output: String, drop: String, workingDirectory: String = FileManager.default.currentDirectoryPath)
        throws
    {
        func refuse(_ reason: String, fix: String) -> DayfoldError {
            DayfoldError(.usage, "--output \(output): \(reason)", fix: fix)
        }
        let newFolder = "give a new or empty folder, e.g. --output Outputs/<name> (dayfold replaces the whole folder)"
        let trimmed = output.count > 1 && output.hasSuffix("/") ? String(output.dropLast()) : output
        guard !trimmed.isEmpty else { throw refuse("an empty path", fix: newFolder) }
        let absolute =
            trimmed.hasPrefix("/") ? trimmed : (workingDirectory as NSString).appendingPathComponent(trimmed)
        let resolved: String
        if let real = OutputTarget.realPath(absolute) {
            resolved = real
        } else {
            var status = stat()
            if lstat(absolute, &status) == 0 {
                throw refuse("a symbolic link to nowhere", fix: "remove the link or give the folder it should name")
            }
            let parentPath = (absolute as NSString).deletingLastPathComponent
            var isDirectory: ObjCBool = false
            guard let parent = OutputTarget.realPath(parentPath),
                FileManager.default.fileExists(atPath: parent, isDirectory: &isDirectory), isDirectory.boolValue
            else {
                throw refuse(
                    "its parent folder \(parentPath) does not exist",
                    fix: "create \(parentPath) first, or give a path inside an existing folder")
            }
            resolved = (parent as NSString).appendingPathComponent((absolute as NSString).lastPathComponent)
        }
        guard resolved != "/" else { throw refuse("the root folder / cannot be an output", fix: newFolder) }
        if let dropPath = OutputTarget.realPath(
            drop.hasPrefix("/") ? drop : (workingDirectory as NSString).appendingPathComponent(drop))
        {
            if resolved == dropPath {
                throw refuse("this is the input drop; publishing there would delete it", fix: newFolder)
            }
            if OutputTarget.isInside(resolved, dropPath) {
                throw refuse("this folder is inside the input drop \(dropPath)", fix: "give a folder outside the drop")
            }
            if OutputTarget.isInside(dropPath, resolved),
                !OutputTarget.isInside(dropPath, resolved + "/" + OutputTarget.workArea)
            {
                throw refuse(
                    "this folder holds the input drop \(dropPath); publishing there would delete it", fix: newFolder)
            }
        }
        let working = OutputTarget.realPath(workingDirectory) ?? workingDirectory
        if resolved == working || OutputTarget.isInside(working, resolved) {
            throw refuse(
                "the working directory (\(working)) or a folder that holds it cannot be an output",
                fix: newFolder)
        }
        destination = resolved
        parent = (resolved as NSString).deletingLastPathComponent
        OutputPublisher.recoverAbandoned(parent: parent, name: (resolved as NSString).lastPathComponent)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: resolved, isDirectory: &isDirectory) else {
            state = .new
            try OutputTarget.checkWritable(parent)
            return
        }
        guard isDirectory.boolValue else {
            throw refuse("a file, not a folder: dayfold would replace it", fix: newFolder)
        }
        let entries: [String]
        do {
            entries = try FileManager.default.contentsOfDirectory(atPath: resolved)
        } catch {
            throw refuse("cannot list the folder: \(error.localizedDescription)", fix: "check its permissions")
        }
        if entries.isEmpty {
            state = .empty
        } else {
            guard
                OutputTarget.isDayfoldManifest((resolved as NSString).appendingPathComponent("manifest.json"))
                    || OutputTarget.isJobWorkArea(resolved, entries)
            else {
                throw refuse(
                    "a folder that is not empty and not a dayfold output (no manifest.json written by dayfold)",
                    fix: newFolder)
            }
            let foreign = OutputTarget.foreignEntries(entries)
            guard foreign.isEmpty else {
                let shown = foreign.prefix(5).joined(separator: ", ") + (foreign.count > 5 ? ", …" : "")
                throw refuse(
                    "a dayfold output that also holds \(foreign.count) other entr\(foreign.count == 1 ? "y" : "ies") "
                        + "(\(shown)); publishing replaces the whole folder",
                    fix: "move them out of \(resolved), or give another --output")
            }
            state = .previousPublish
        }
        try OutputTarget.checkWritable(parent)
    }

    /// Entries of an output (or temporary) directory that dayfold did not
    /// write, sorted by bytes; `allowing` adds names (a staging directory's
    /// spill folder).
    static func foreignEntries(_ entries: [String], allowing extra: Set<String> = []) -> [String] {
        entries.filter { !ownEntries.contains($0) && !extra.contains($0) }.sorted(by: bytesLess)
    }

    /// Whether `path` is a `manifest.json` whose `tool` is `dayfold`.
    static func isDayfoldManifest(_ path: String) -> Bool {
        guard let data = FileManager.default.contents(atPath: path),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return false }
        return object["tool"] as? String == "dayfold"
    }

    /// Refuses up front a parent folder the run could not create its
    /// temporaries in, naming that folder (not the output inside it).
    static func checkWritable(_ parent: String) throws {
        do {
            try SystemCall.checkWritable(parent)
        } catch {
            throw OutputTarget.cannotWrite(parent, error)
        }
    }

    /// The error for a directory dayfold cannot write in.
    static func cannotWrite(_ directory: String, _ failure: SystemCallError) -> DayfoldError {
        DayfoldError(
            .output, "cannot write in \(directory): \(failure.message)",
            fix: "give an --output in a folder you can write, or fix the permissions of \(directory)")
    }

    /// The real path of an existing file or folder (links and `..` resolved).
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Whether `inner` lies strictly inside `outer` (both real paths).
    static func isInside(_ inner: String, _ outer: String) -> Bool {
        // Bytes, not characters: a combining mark after the `/` must not hide
        // a folder inside another.
        let prefix = Array((outer.hasSuffix("/") ? outer : outer + "/").utf8)
        let bytes = Array(inner.utf8)
        return bytes.count > prefix.count && bytes.starts(with: prefix)
    }
}
