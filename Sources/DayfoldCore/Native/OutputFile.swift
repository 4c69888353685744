import CSystem
import Foundation

/// A new file written front to back that bypasses the page cache
/// (`dayfold_open_direct`) where the file system allows it, for the outputs: they are
/// flushed to the disk before the publish anyway, and nothing in the run
/// reads them back. Copying them into the page cache cost a run more CPU
/// than any other single write step: each page of a new file is a page the
/// kernel must find and fill, and on a virtual machine a page the host must
/// back (about 0.5 s of CPU for the 1 GB benchmark drop's 180 MB of
/// outputs; a direct write of the same bytes is a DMA from this buffer).
///
/// Bytes gather in an aligned buffer written out whole; the last, partial
/// block is written padded and the file then cut to its length. Where the
/// file system refuses direct I/O (tmpfs, some network and FUSE file
/// systems), at the open or at a write, the file is written through the
/// page cache instead: the same bytes either way. So is a file the run
/// reads back (`throughPageCache`: a partition's spill), which the cache
/// then still holds.
final class OutputFile {
    let path: String
    private var descriptor: Int32
    private var direct: Bool
    /// Aligned to `alignment`; `capacity` bytes, `filled` of them used.
    private let buffer: UnsafeMutableRawPointer
    private var filled = 0
    private var length: Int64 = 0
    private var closed = false

    /// Direct I/O needs buffers, lengths and offsets in multiples of the
    /// device's logical block: 4096 covers every block size Linux uses.
    private static let alignment = 4096
    private static let capacity = 1 << 20

    /// Creates (or truncates) `path`.
    init(path: String, throughPageCache: Bool = false) throws(SystemCallError) {
        self.path = path
        let flags: Int32 = O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC
        let directFlags: Int32 = flags | Int32(dayfold_open_direct)
        var descriptor: Int32 = throughPageCache ? -1 : Foundation.open(path, directFlags, 0o644)
        direct = descriptor >= 0
        if descriptor < 0, throughPageCache || errno == EINVAL {
            descriptor = Foundation.open(path, flags, 0o644)
        }
        guard descriptor >= 0 else { throw SystemCallError(call: "open", path: path, code: errno) }
        self.descriptor = descriptor
        var memory: UnsafeMutableRawPointer?
        guard posix_memalign(&memory, Self.alignment, Self.capacity) == 0, let memory else {
            Foundation.close(descriptor)
            throw SystemCallError(call: "posix_memalign", path: path, code: ENOMEM)
        }
        buffer = memory
    }

    deinit {
        if !closed { Foundation.close(descriptor) }
        buffer.deallocate()
    }

    /// Bytes written so far (what the file will hold once closed).
    var count: Int64 { length + Int64(filled) }

    /// Appends `bytes`.
    func write(_ bytes: [UInt8]) throws(SystemCallError) {
        var failure: SystemCallError?
        bytes.withUnsafeBytes { raw in
            do throws(SystemCallError) { try append(raw) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// Appends the bytes at `bytes` (copied into the aligned buffer).
    func append(_ bytes: UnsafeRawBufferPointer) throws(SystemCallError) {
        var offset = 0
        while offset < bytes.count {
            let take = min(Self.capacity - filled, bytes.count - offset)
            if let base = bytes.baseAddress { (buffer + filled).copyMemory(from: base + offset, byteCount: take) }
            filled += take
            offset += take
            if filled == Self.capacity { try flush(Self.capacity) }
        }
    }

    /// Writes the buffer's first `size` bytes (a multiple of the alignment
    /// while direct) at the file's end.
    private func flush(_ size: Int) throws(SystemCallError) {
        var written = 0
        while written < size {
            let result = pwrite(descriptor, buffer + written, size - written, off_t(length) + off_t(written))
            if result < 0 {
                if errno == EINTR { continue }
                if errno == EINVAL, direct {
                    // Direct I/O opened but is refused here: on through the page cache.
                    try leaveDirect()
                    continue
                }
                throw SystemCallError(call: "write", path: path, code: errno)
            }
            written += result
        }
        length += Int64(size)
        filled = 0
    }

    private func leaveDirect() throws(SystemCallError) {
        let flags = fcntl(descriptor, F_GETFL)
        guard flags >= 0, fcntl(descriptor, F_SETFL, flags & ~Int32(dayfold_open_direct)) == 0 else {
            throw SystemCallError(call: "fcntl", path: path, code: errno)
        }
        direct = false
    }

    /// Closes the file without writing what is left (a failed write: the
    /// caller removes the file).
    func abandon() {
        guard !closed else { return }
        closed = true
        Foundation.close(descriptor)
    }

    /// Writes what is left, flushes the file to the disk and closes it.
    func close() throws(SystemCallError) {
        guard !closed else { return }
        if filled > 0 {
            let size = filled
            if direct {
                // The last block is written whole, zero-padded, and the file cut back.
                let padded = (size + Self.alignment - 1) / Self.alignment * Self.alignment
                (buffer + size).initializeMemory(as: UInt8.self, repeating: 0, count: padded - size)
                try flush(padded)
                length -= Int64(padded - size)
                guard ftruncate(descriptor, off_t(length)) == 0 else {
                    throw SystemCallError(call: "ftruncate", path: path, code: errno)
                }
            } else {
                try flush(size)
            }
        }
        guard Foundation.fsync(descriptor) == 0 || errno == EINVAL else {
            throw SystemCallError(call: "fsync", path: path, code: errno)
        }
        closed = true
        guard Foundation.close(descriptor) == 0 else {
            throw SystemCallError(call: "close", path: path, code: errno)
        }
    }
}
