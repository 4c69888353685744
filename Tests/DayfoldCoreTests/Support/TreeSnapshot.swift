import Foundation

/// What a folder holds, entry by entry (relative path → bytes, or a link's
/// target, or the kind of a special file), to prove a run changed nothing.
struct TreeSnapshot: Equatable {
    var entries: [String: String]

    init(_ root: URL) {
        entries = [:]
        let manager = FileManager.default
        guard let names = manager.subpaths(atPath: root.path) else { return }
        for name in names {
            let path = root.appendingPathComponent(name).path
            var info = stat()
            guard lstat(path, &info) == 0 else {
                entries[name] = "unreadable"
                continue
            }
            switch info.st_mode & S_IFMT {
            case S_IFREG:
                let bytes = manager.contents(atPath: path) ?? Data()
                entries[name] = "file \(bytes.count) bytes, FNV-1a \(TreeSnapshot.fnv1a(bytes))"
            case S_IFLNK:
                entries[name] = "link " + ((try? manager.destinationOfSymbolicLink(atPath: path)) ?? "?")
            case S_IFDIR:
                entries[name] = "folder"
            default:
                entries[name] = "special \(info.st_mode & S_IFMT)"
            }
        }
    }

    /// A 64-bit FNV-1a digest of every byte (Data's own hash looks at a prefix only).
    static func fnv1a(_ bytes: Data) -> UInt64 {
        bytes.reduce(0xcbf2_9ce4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
    }

    /// The entries that differ between two snapshots, for a failure message.
    func differences(from other: TreeSnapshot) -> [String] {
        Set(entries.keys).union(other.entries.keys).sorted().compactMap { key in
            entries[key] == other.entries[key]
                ? nil : "\(key): \(other.entries[key] ?? "absent") → \(entries[key] ?? "absent")"
        }
    }
}
