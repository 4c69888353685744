import Foundation

/// A libc call that failed: which, on what, and the system's message.
public struct SystemCallError: Error, Sendable, CustomStringConvertible {
    public var call: String
    public var path: String
    public var code: Int32
    /// `strerror` of `code`.
    public var message: String { String(cString: strerror(code)) }
    public var description: String { "\(call) \(path): \(message)" }
}

/// The file-system calls the publish relies on, each checked here once:
/// a result is never ignored, and a failure carries errno and its message.
enum SystemCall {
    /// Renames `source` to `target` (atomic within one file system).
    static func rename(_ source: String, _ target: String) throws(SystemCallError) {
        guard Foundation.rename(source, target) == 0 else {
            throw SystemCallError(call: "rename", path: source, code: errno)
        }
    }

    /// Creates the folder `path` (its parent must exist).
    static func makeDirectory(_ path: String) throws(SystemCallError) {
        guard Foundation.mkdir(path, 0o777) == 0 else { throw SystemCallError(call: "mkdir", path: path, code: errno) }
    }

    /// Flushes a file or folder to the disk. EINVAL (a file system that
    /// cannot sync this kind of file) is no failure: nothing was lost.
    static func sync(_ path: String) throws(SystemCallError) {
        let descriptor = Foundation.open(path, O_RDONLY)
        guard descriptor >= 0 else { throw SystemCallError(call: "open", path: path, code: errno) }
        defer { Foundation.close(descriptor) }
        guard Foundation.fsync(descriptor) == 0 || errno == EINVAL else {
            throw SystemCallError(call: "fsync", path: path, code: errno)
        }
    }

    /// Whether the calling process may write in and enter the folder `path`.
    static func checkWritable(_ path: String) throws(SystemCallError) {
        guard access(path, W_OK | X_OK) == 0 else { throw SystemCallError(call: "access", path: path, code: errno) }
    }

    /// A file's size and modification time (`stat`, so a link is followed:
    /// a drop's file may be a link to where it lives).
    static func status(_ path: String) throws(SystemCallError) -> (size: Int64, modifiedNanoseconds: Int64) {
        var info = stat()
        guard stat(path, &info) == 0 else { throw SystemCallError(call: "stat", path: path, code: errno) }
        return (Int64(info.st_size), Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec))
    }

    /// Writes `bytes` to a new file `path` and flushes it to the disk
    /// before returning (so a rename of it publishes whole content).
    static func writeSynced(_ bytes: [UInt8], to path: String) throws(SystemCallError) {
        let descriptor = Foundation.open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw SystemCallError(call: "open", path: path, code: errno) }
        defer { Foundation.close(descriptor) }
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw SystemCallError(call: "write", path: path, code: errno)
            }
            written += count
        }
        guard Foundation.fsync(descriptor) == 0 || errno == EINVAL else {
            throw SystemCallError(call: "fsync", path: path, code: errno)
        }
    }

    /// This process's id.
    static var processID: Int32 { getpid() }

    /// Whether process `pid` is alive (one of another user counts: it
    /// exists, it cannot be signalled).
    static func isAlive(_ pid: Int32) -> Bool { kill(pid, 0) == 0 || errno == EPERM }
}
