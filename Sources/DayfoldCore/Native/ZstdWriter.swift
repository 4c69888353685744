import CZstd
import Foundation

/// Compresses a byte stream into a `.zst` file with libzstd's streaming API
/// (`ZSTD_compressStream2`), so a file of any size is written with a fixed
/// amount of memory. Owns the compression context and frees it in `deinit`.
///
///     let writer = try ZstdWriter(path: "events-000.csv.zst")
///     try writer.write(chunk)   // as often as needed
///     try writer.close()        // ends the frame; required
///
/// `package` (not `public`) because DayfoldGenerate writes its `--zstd`
/// drops with it; nothing outside this package should depend on it.
package final class ZstdWriter {
    private let context: OpaquePointer
    private let handle: FileHandle
    private let path: String
    private var output: [UInt8]
    private var closed = false
    /// Bytes written to the file so far.
    package private(set) var compressedBytes: Int64 = 0

    /// Creates (or truncates) `path`; `level` is the zstd level (3 is zstd's default).
    package init(path: String, level: Int32 = 3) throws {
        guard let context = ZSTD_createCCtx() else {
            throw ZstdError(operation: "createCCtx", message: "cannot create a compression context")
        }
        do {
            try ZstdCall.check(
                ZSTD_CCtx_setParameter(context, ZSTD_c_compressionLevel, level), "setParameter(compressionLevel)")
            try ZstdCall.check(ZSTD_CCtx_setParameter(context, ZSTD_c_checksumFlag, 1), "setParameter(checksumFlag)")
        } catch {
            ZSTD_freeCCtx(context)
            throw error
        }
        guard FileManager.default.createFile(atPath: path, contents: nil),
            let handle = FileHandle(forWritingAtPath: path)
        else {
            ZSTD_freeCCtx(context)
            throw DayfoldError(.output, "cannot create \(path)", fix: "check that the output folder is writable")
        }
        self.context = context
        self.handle = handle
        self.path = path
        output = [UInt8](repeating: 0, count: ZSTD_CStreamOutSize())
    }

    deinit { ZSTD_freeCCtx(context) }

    /// Compresses `bytes` into the frame; output reaches the file as zstd produces it.
    package func write(_ bytes: [UInt8]) throws {
        precondition(!closed, "write after close")
        guard !bytes.isEmpty else { return }
        try bytes.withUnsafeBytes { source in
            var input = ZSTD_inBuffer(src: source.baseAddress, size: source.count, pos: 0)
            while input.pos < input.size {
                _ = try step(&input, ZSTD_e_continue)
            }
        }
    }

    /// Ends the frame, writes what zstd still holds and closes the file.
    package func close() throws {
        guard !closed else { return }
        closed = true
        var input = ZSTD_inBuffer(src: nil, size: 0, pos: 0)
        while try step(&input, ZSTD_e_end) != 0 {}
        do {
            try handle.close()
        } catch {
            throw DayfoldError(.output, "cannot close \(path): \(error)")
        }
    }

    /// One `ZSTD_compressStream2` call; writes its output; returns zstd's
    /// "bytes still to flush" hint (0 when a flush or end is complete).
    private func step(_ input: inout ZSTD_inBuffer, _ directive: ZSTD_EndDirective) throws -> Int {
        let (remaining, produced) = try output.withUnsafeMutableBytes { destination in
            var buffer = ZSTD_outBuffer(dst: destination.baseAddress, size: destination.count, pos: 0)
            let remaining = try ZstdCall.check(
                ZSTD_compressStream2(context, &buffer, &input, directive), "compressStream2")
            return (remaining, buffer.pos)
        }
        if produced > 0 {
            do {
                try handle.write(contentsOf: Data(output[0..<produced]))
            } catch {
                throw DayfoldError(.output, "cannot write \(path): \(error)")
            }
            compressedBytes += Int64(produced)
        }
        return remaining
    }

}
