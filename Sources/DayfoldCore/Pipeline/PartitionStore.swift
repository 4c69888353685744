import Foundation

/// The state's partitions (SPEC §12): `DIR/partitions/<key>/` holds the
/// sorted table parts (`<table>.csv`) and `contribution.json` of one
/// partition, computed from inputs whose `PartitionKey` is `key`.
///
/// A folder is written under a temporary name and renamed to its key once
/// whole, and never changed after: the same key is the same content, so a
/// run reads a stored partition instead of ingesting and computing it.
/// Folders no state refers to are removed after the state is replaced;
/// nothing else under `DIR` is touched.
struct PartitionStore: Sendable {
    let folder: String

    init(state: StateDirectory) {
        folder = (state.path as NSString).appendingPathComponent("partitions")
    }

    func path(_ key: String) -> String { (folder as NSString).appendingPathComponent(key) }

    /// A stored partition whose folder is whole: its contribution reads
    /// back and every part has the size it was written with. Anything less
    /// is no partition (it is computed again).
    func stored(_ key: String) -> PartitionContribution? {
        let partition = path(key)
        guard let data = FileManager.default.contents(atPath: partition + "/contribution.json"),
            let contribution = try? JSONDecoder().decode(PartitionContribution.self, from: data)
        else { return nil }
        for (table, size) in contribution.partSizes {
            guard let status = try? SystemCall.status(partition + "/\(table).csv"), status.size == size else {
                return nil
            }
        }
        return contribution
    }

    /// A new, empty folder to write partition `key` into (renamed by `commit`).
    func begin(_ key: String) throws -> String {
        let temporary = (folder as NSString).appendingPathComponent(".\(key).\(SystemCall.processID).tmp")
        try? FileManager.default.removeItem(atPath: temporary)
        try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
        return temporary
    }

    /// Writes `contribution` into the temporary folder and gives it its key.
    /// Returns the folder the parts now live in.
    func commit(_ key: String, _ contribution: PartitionContribution, from temporary: String) throws -> String {
        let data = try contribution.encoded()
        do {
            try SystemCall.writeSynced(Array(data), to: temporary + "/contribution.json")
            for table in contribution.partSizes.keys { try SystemCall.sync(temporary + "/\(table).csv") }
            try SystemCall.sync(temporary)
            // A folder of the same key (a stored one that did not read back
            // whole) is replaced: this one was just computed.
            if FileManager.default.fileExists(atPath: path(key)) {
                try FileManager.default.removeItem(atPath: path(key))
            }
            try SystemCall.rename(temporary, path(key))
            try SystemCall.sync(folder)
        } catch let error as SystemCallError {
            throw DayfoldError(
                .output, "saving a partition in the state failed: \(error)", fix: "check free disk space")
        }
        return path(key)
    }

    /// Removes the partition folders not in `keep`, and temporaries of runs
    /// that are gone. Only names this store writes are considered.
    func removeUnreferenced(keeping keep: Set<String>) {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for entry in entries {
            if PartitionKey.isKey(entry) {
                if !keep.contains(entry) { try? FileManager.default.removeItem(atPath: path(entry)) }
                continue
            }
            let parts = entry.split(separator: ".")
            guard entry.hasPrefix("."), entry.hasSuffix(".tmp"), parts.count == 3, PartitionKey.isKey(String(parts[0])),
                let pid = Int32(parts[1]), !SystemCall.isAlive(pid) || pid == SystemCall.processID
            else { continue }
            try? FileManager.default.removeItem(atPath: path(entry))
        }
    }
}
