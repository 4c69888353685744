/// Walks a whole drop on raw names (`DirectoryEntries`), without opening
/// anything: what it reports is each file's place in the drop and, for an
/// entry that must not be read, why.
struct DropWalk {
    /// An entry that is (or stands for) a file.
    struct Found {
        /// The path's names, relative to the drop, as bytes.
        var components: [[UInt8]]
        /// Why it is not read; nil for a regular file (or a link to one that may be followed).
        var problem: String?
    }

    let root: String
    let followLinks: Bool
    /// Folders nested deeper than this are not walked (each is listed instead).
    static let maxDepth = 24

    func run() -> [Found] {
        let rootBytes = Array(root.utf8)
        var found: [Found] = []
        var visited: Set<[UInt8]> = []
        let realRoot = DirectoryEntries.realPath(rootBytes) ?? rootBytes
        visited.insert(realRoot)
        walk(rootBytes, [], realRoot: realRoot, visited: &visited, into: &found)
        return found
    }

    private func walk(
        _ folder: [UInt8], _ prefix: [[UInt8]], realRoot: [UInt8], visited: inout Set<[UInt8]>,
        into found: inout [Found]
    ) {
        guard let entries = DirectoryEntries.list(folder) else {
            found.append(Found(components: prefix, problem: "folder cannot be listed (permission?)"))
            return
        }
        for entry in entries {
            let components = prefix + [entry.name]
            let path = folder + [0x2F] + entry.name
            func enter() {
                guard components.count < DropWalk.maxDepth else {
                    found.append(Found(components: components, problem: "folder nested too deep, not walked"))
                    return
                }
                walk(path, components, realRoot: realRoot, visited: &visited, into: &found)
            }
            switch entry.kind {
            case .directory:
                enter()
            case .regular:
                found.append(Found(components: components, problem: nil))
            case .symbolicLink:
                switch DirectoryEntries.resolve(path) {
                case .dangling:
                    found.append(Found(components: components, problem: "dangling symbolic link"))
                case .loop:
                    found.append(Found(components: components, problem: "symbolic link loop"))
                case .resolved(let target, let kind):
                    let inside = target == realRoot || target.starts(with: realRoot + [0x2F])
                    if !inside && !followLinks {
                        found.append(
                            Found(
                                components: components,
                                problem: "symbolic link to a file outside the drop (--follow-links reads it)"))
                    } else if kind == .regular {
                        found.append(Found(components: components, problem: nil))
                    } else if kind == .directory {
                        // A folder reached twice (a link back up the tree) is walked once.
                        if visited.insert(target).inserted {
                            enter()
                        } else {
                            found.append(Found(components: components, problem: "symbolic link loop"))
                        }
                    } else {
                        found.append(
                            Found(components: components, problem: "symbolic link to \(DropWalk.describe(kind))"))
                    }
                }
            default:
                found.append(Found(components: components, problem: DropWalk.describe(entry.kind)))
            }
        }
    }

    static func describe(_ kind: FileKind) -> String {
        switch kind {
        case .regular: return "a regular file"
        case .directory: return "a folder"
        case .symbolicLink: return "a symbolic link"
        case .fifo: return "a FIFO (named pipe), not a regular file"
        case .socket: return "a socket, not a regular file"
        case .characterDevice: return "a character device, not a regular file"
        case .blockDevice: return "a block device, not a regular file"
        case .other: return "not a regular file"
        }
    }
}
