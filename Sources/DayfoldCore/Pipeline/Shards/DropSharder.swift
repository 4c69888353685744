import Foundation

/// `dayfold shard DROP --shards N --out DIR` (SPEC §13): the drop split into
/// N self-contained drops `DIR/shard=K/`, by client user groups as
/// `--max-memory` groups them (users tied by shared ids go together) and
/// `StableAssignment`'s documented hash, so every machine and every run
/// puts a user in the same shard.
///
/// Every data row of a task, journal, health or push file lands in exactly
/// one shard (a row that names no user goes to shard 0, whose run rejects
/// it); subject files and push installations are copied whole into every
/// shard and accounted by shard 0; Apple Health exports go with their user.
/// Shard files keep the original's line numbers (`__line`), so rejects
/// point into the original drop. The shard step's own `manifest.json` in
/// DIR says where each file's rows went.
public struct DropSharder {
    public var drop: String
    public var shards: Int
    public var output: String
    public var followLinks = false

    public init(drop: String, shards: Int, output: String) {
        self.drop = drop
        self.shards = shards
        self.output = output
    }

    /// What the shard step did: rows per shard and where they went.
    public struct Summary: Sendable {
        public var output: String
        public var rowsByShard: [Int]
    }

    public func run() throws -> Summary {
        guard (1...100_000).contains(shards) else {
            throw DayfoldError(.usage, "--shards must be from 1 to 100000, got \(shards)")
        }
        let destination = try checkedOutput()
        let parent = (destination as NSString).deletingLastPathComponent
        let name = (destination as NSString).lastPathComponent
        let staging = (parent as NSString).appendingPathComponent(".dayfold-\(name).tmp-\(SystemCall.processID)")
        try? FileManager.default.removeItem(atPath: staging)
        do {
            let summary = try write(into: staging)
            if FileManager.default.fileExists(atPath: destination) {
                try FileManager.default.removeItem(atPath: destination)
            }
            try SystemCall.rename(staging, destination)
            return Summary(output: destination, rowsByShard: summary)
        } catch {
            try? FileManager.default.removeItem(atPath: staging)
            throw error as? DayfoldError ?? DayfoldError(.output, "sharding failed: \(error)")
        }
    }

    /// The resolved output folder: new (its parent exists) or empty, and
    /// apart from the drop.
    private func checkedOutput() throws -> String {
        func refuse(_ reason: String) -> DayfoldError {
            DayfoldError(.usage, "--out \(output): \(reason)", fix: "give a new or empty folder outside the drop")
        }
        let working = FileManager.default.currentDirectoryPath
        let absolute = output.hasPrefix("/") ? output : (working as NSString).appendingPathComponent(output)
        let parentPath = (absolute as NSString).deletingLastPathComponent
        guard let parent = OutputTarget.realPath(parentPath) else {
            throw refuse("its parent folder \(parentPath) does not exist")
        }
        let resolved = (parent as NSString).appendingPathComponent((absolute as NSString).lastPathComponent)
        if FileManager.default.fileExists(atPath: resolved) {
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: resolved)) ?? ["?"]
            guard entries.isEmpty else { throw refuse("not empty (dayfold shard writes a new folder)") }
        }
        let dropPath = OutputTarget.realPath(
            drop.hasPrefix("/") ? drop : (working as NSString).appendingPathComponent(drop))
        if let dropPath,
            resolved == dropPath || OutputTarget.isInside(resolved, dropPath)
                || OutputTarget.isInside(dropPath, resolved)
        {
            throw refuse("it overlaps the drop \(dropPath)")
        }
        return resolved
    }

    /// Routes the drop into `staging/shard=K/`; returns the rows per shard.
    private func write(into staging: String) throws -> [Int] {
        let layout = try DropLayout(root: drop, options: DropLayout.Options(followLinks: followLinks))
        if let reason = PartitionRouter.whyNotPartitioned(layout) {
            throw DayfoldError(.usage, "this drop cannot be sharded: \(reason)", fix: "export the journal as CSV")
        }
        try FileManager.default.createDirectory(atPath: staging, withIntermediateDirectories: true)
        // Routing reads no instant: the as-of plays no part in where a row goes.
        let router = try PartitionRouter(
            layout: layout, options: IngestOptions(asOf: Instant(micros: 0)), partitions: shards,
            root: staging + "/.routing", stableAssignment: true, copyShared: true)
        let folders = try router.run()
        var digests: [String: String] = [:]
        for file in layout.allFiles {
            digests[file.relativePath] =
                try router.digests[file.relativePath] ?? SHA256Hasher.hex(file: file.absolutePath)
        }
        let owned = router.ownedUsers()
        for (index, folder) in folders.enumerated() {
            let marker = ShardMarker(
                format: ShardMarker.format, toolVersion: Manifest.toolVersion, shard: index, shards: shards,
                ownedUsers: owned[index].sorted(by: bytesLess), originalPaths: router.originalPaths,
                sharedFiles: PartitionRouter.sharedFiles(layout).map(\.relativePath),
                readingOrder: layout.readingOrder.map(\.relativePath), digests: digests, hasPush: layout.hasPushFolder,
                unrecognizedFiles: layout.unrecognizedFiles, presplitFolder: nil)
            try marker.encoded().write(to: URL(fileURLWithPath: folder + "/" + ShardMarker.fileName))
            try SystemCall.rename(folder, staging + "/shard=\(index)")
        }
        try? FileManager.default.removeItem(atPath: staging + "/.routing")
        try Data(manifest(layout: layout, router: router, digests: digests).utf8).write(
            to: URL(fileURLWithPath: staging + "/manifest.json"))
        return (0..<shards).map { index in router.spillRows[index].values.reduce(0, +) }
    }

    /// The shard step's manifest: each input's SHA-256 and its rows per shard
    /// (files read whole by every shard say so instead).
    private func manifest(layout: DropLayout, router: PartitionRouter, digests: [String: String]) -> String {
        let spillOf = Dictionary(router.originalPaths.map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        let shared = Set(PartitionRouter.sharedFiles(layout).map(\.relativePath))
        let lines = layout.allFiles.map { file -> String in
            var fields = [
                "\"path\": \(jsonString(file.relativePath))",
                "\"sha256\": \(jsonString(digests[file.relativePath] ?? ""))",
            ]
            if shared.contains(file.relativePath) {
                fields.append("\"copied_to\": \"every shard\"")
            } else if let spill = spillOf[file.relativePath] {
                let rows = (0..<shards).map { router.spillRows[$0][spill] ?? 0 }
                fields.append("\"rows_read\": \(rows.reduce(0, +))")
                fields.append("\"rows_by_shard\": [\(rows.map(String.init).joined(separator: ", "))]")
            } else {
                fields.append("\"copied_to\": \"its user's shard\"")
            }
            return "    {" + fields.joined(separator: ", ") + "}"
        }
        return """
            {
              "tool": "dayfold",
              "tool_version": \(jsonString(Manifest.toolVersion)),
              "command": "shard",
              "shards": \(shards),
              "assignment": "FNV-1a 64 of the UTF-8 bytes of the smallest user id of each group, modulo shards",
              "inputs": [
            \(lines.joined(separator: ",\n"))
              ]
            }

            """
    }
}
