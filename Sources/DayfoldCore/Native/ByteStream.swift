import Foundation

/// A forward-only stream of bytes: a plain file, or a zstd-compressed file
/// decompressed on the fly. Streaming keeps memory flat on exports larger
/// than memory.
public protocol ByteStream: AnyObject {
    /// The next chunk of bytes, or `nil` at the end of the stream.
    /// Throws `ByteStreamError` when the underlying file cannot be read whole.
    func nextChunk() throws -> [UInt8]?

    /// Appends the next chunk to `buffer`; false at the end of the stream.
    func append(to buffer: inout [UInt8]) throws -> Bool
}

extension ByteStream {
    public func append(to buffer: inout [UInt8]) throws -> Bool {
        guard let chunk = try nextChunk() else { return false }
        buffer.append(contentsOf: chunk)
        return true
    }
}

/// Why a byte stream could not be read whole.
public struct ByteStreamError: Error, Sendable, CustomStringConvertible {
    public enum Kind: String, Sendable {
        case open, read, zstd, gzip, zip
    }
    public var kind: Kind
    public var path: String
    public var detail: String
    public var description: String { "\(path): \(kind.rawValue): \(detail)" }
}

/// The SHA-256 of the bytes a stream reads from its file (compressed bytes
/// for a `.zst` file), taken as they are read: the manifest's input digests
/// cost no second reading of the drop, and the bytes are hashed while still
/// in cache on the thread that reads them.
public final class StreamDigest {
    private var hasher = SHA256Hasher()
    private let hashing: Bool
    /// Bytes read from the file so far.
    public private(set) var bytes = 0

    /// `hashing: false` only counts the bytes (a whole run hashes its inputs
    /// on a thread of its own, see `FileDigests`).
    public init(hashing: Bool = true) { self.hashing = hashing }

    func update(_ bytes: UnsafeRawBufferPointer) {
        self.bytes += bytes.count
        if hashing { hasher.update(bytes) }
    }

    /// The hex digest ("" when only counting); call once, after the stream has reached its end.
    public func hex() -> String { hashing ? hasher.finalizeHex() : "" }
}

/// Opens `path` for streaming; files ending in `.zst` or `.gz` are decompressed.
/// With `digest`, the file's bytes are hashed into it as they are read.
public func openByteStream(path: String, chunkSize: Int = 1 << 20, digest: StreamDigest? = nil) throws -> ByteStream {
    let file = try FileByteStream(path: path, chunkSize: chunkSize)
    file.digest = digest
    if path.hasSuffix(".zst") {
        return try ZstdByteStream(source: file, path: path)
    }
    if path.hasSuffix(".gz") {
        return try GzipByteStream(source: file, path: path)
    }
    return file
}

/// Reads a file with POSIX `read`, a chunk at a time.
public final class FileByteStream: ByteStream {
    private let fd: Int32
    private let chunkSize: Int
    public let path: String
    /// When set, every byte read is hashed into it.
    var digest: StreamDigest?

    public init(path: String, chunkSize: Int = 1 << 20) throws {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else {
            throw ByteStreamError(kind: .open, path: path, detail: String(cString: strerror(errno)))
        }
        self.fd = fd
        self.chunkSize = chunkSize
        self.path = path
    }

    deinit { close(fd) }

    /// Reads straight into the room after the caller's buffer (left
    /// uninitialised until `read` fills it): no scratch chunk to copy from.
    public func append(to buffer: inout [UInt8]) throws -> Bool {
        let before = buffer.count
        try buffer.append(addingCapacity: chunkSize) { output in
            try output.withUnsafeMutableBufferPointer { room, initialized in
                initialized = try read(into: UnsafeMutableRawBufferPointer(room))
            }
        }
        return buffer.count > before
    }

    public func nextChunk() throws -> [UInt8]? {
        // Read into uninitialised room: no zeroing of a chunk about to be overwritten.
        var chunk: [UInt8] = []
        return try append(to: &chunk) ? chunk : nil
    }

    /// One `read` into the start of `room` (retried on EINTR), the bytes
    /// hashed into `digest` when set; returns the count, 0 at the end.
    private func read(into room: UnsafeMutableRawBufferPointer) throws -> Int {
        var count: Int
        repeat {
            count = Foundation.read(fd, room.baseAddress, room.count)
        } while count < 0 && errno == EINTR
        guard count >= 0 else {
            throw ByteStreamError(kind: .read, path: path, detail: String(cString: strerror(errno)))
        }
        if let digest, count > 0 { digest.update(UnsafeRawBufferPointer(rebasing: room[0..<count])) }
        return count
    }
}
