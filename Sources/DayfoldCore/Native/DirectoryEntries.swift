import Foundation

/// What a path is, from `lstat` (the entry itself) or `stat` (a link's target).
public enum FileKind: Sendable, Equatable {
    case regular, directory, symbolicLink, fifo, socket, characterDevice, blockDevice, other

    init(mode: mode_t) {
        switch mode & S_IFMT {
        case S_IFREG: self = .regular
        case S_IFDIR: self = .directory
        case S_IFLNK: self = .symbolicLink
        case S_IFIFO: self = .fifo
        case S_IFSOCK: self = .socket
        case S_IFCHR: self = .characterDevice
        case S_IFBLK: self = .blockDevice
        default: self = .other
        }
    }
}

/// Directory listing on raw bytes. `FileManager` decodes names as UTF-8 and
/// mangles (or drops) a name that is not: the drop's accounting must see
/// every entry as it is, so names and paths stay bytes here. Nothing is ever
/// opened: an entry is only `lstat`ed, so a FIFO or a device costs nothing
/// and cannot block.
public enum DirectoryEntries {
    /// One entry of a directory: its name's bytes and what `lstat` says it is.
    public struct Entry: Sendable {
        public var name: [UInt8]
        public var kind: FileKind
    }

    /// The entries of the directory at `path` (bytes, no terminating NUL),
    /// `.` and `..` left out, sorted by bytes; nil when it cannot be listed.
    public static func list(_ path: [UInt8]) -> [Entry]? {
        guard let directory = withCPath(path, { opendir($0) }) else { return nil }
        defer { closedir(directory) }
        var entries: [Entry] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                Array(raw.prefix { $0 != 0 })
            }
            if name == [0x2E] || name == [0x2E, 0x2E] { continue }
            let kind = lstatKind(path + [0x2F] + name) ?? .other
            entries.append(Entry(name: name, kind: kind))
        }
        return entries.sorted { $0.name.lexicographicallyPrecedes($1.name) }
    }

    /// What the entry at `path` is itself (a link is `.symbolicLink`); nil when it does not exist.
    public static func lstatKind(_ path: [UInt8]) -> FileKind? {
        var info = stat()
        guard withCPath(path, { lstat($0, &info) }) == 0 else { return nil }
        return FileKind(mode: info.st_mode)
    }

    /// Where a symbolic link finally leads (`realpath`), or why it leads nowhere.
    public enum LinkTarget: Sendable, Equatable {
        case resolved(path: [UInt8], kind: FileKind)
        case dangling
        case loop
    }

    /// Resolves every link on `path`; the target's kind comes from `stat`.
    public static func resolve(_ path: [UInt8]) -> LinkTarget {
        var resolved = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let result = withCPath(path) { realpath($0, &resolved) }
        guard result != nil else { return errno == ELOOP ? .loop : .dangling }
        let bytes = resolved.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        var info = stat()
        guard withCPath(bytes, { stat($0, &info) }) == 0 else { return errno == ELOOP ? .loop : .dangling }
        return .resolved(path: bytes, kind: FileKind(mode: info.st_mode))
    }

    /// `path` with every link resolved (for the drop's own root), nil when it does not exist.
    public static func realPath(_ path: [UInt8]) -> [UInt8]? {
        var resolved = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard withCPath(path, { realpath($0, &resolved) }) != nil else { return nil }
        return resolved.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
    }

    private static func withCPath<Result>(_ path: [UInt8], _ body: (UnsafePointer<CChar>) -> Result) -> Result {
        let terminated = path + [0]
        return terminated.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                guard let base = chars.baseAddress else { preconditionFailure("a NUL-terminated path is never empty") }
                return body(base)
            }
        }
    }
}
