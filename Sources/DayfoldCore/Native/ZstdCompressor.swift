import CZstd

/// Why a zstd call failed: the operation that ran and libzstd's own message.
/// Zstd compression and decompression of whole buffers. Parquet compresses
/// each page on its own, so each page is one frame (`ZSTD_compressCCtx` on a
/// context kept for the column chunk); this file is the only place the Parquet
/// code touches libzstd.
struct ZstdCompressor: Sendable {
    /// Level 1 by default: on dayfold's pages it compresses as well as the
    /// default (3) in about half the time.
    var level: Int32 = 1
    /// A hash table of 2^hashLog entries; nil leaves the level's own size.
    var hashLog: Int32? = nil

    /// For text columns: level −3 with Huffman-coded literals and a
    /// 4096-entry hash table. The event snapshot's text is mostly random ids
    /// (hex digests, UUIDs) in which no match finder finds anything, and at
    /// level 1 zstd spent its time probing a hash table too large for the
    /// cache. These pages compress 1.7–1.8× faster to the same size (left
    /// raw, as negative levels leave literals by default, the ids would take
    /// twice the space); repetitive text (ids of a sorted column, names)
    /// comes out the same. Numbers stay at level 1: at level −3 their columns
    /// grew 10–45 %. Measured in `Decisions.md`.
    static let text = ZstdCompressor(level: -3, hashLog: 12)

    /// A context set up with these settings, kept for the pages of a column chunk.
    func makeContext() throws -> ZstdCompressionContext {
        let context = try ZstdCompressionContext()
        try ZstdCall.check(dayfold_zstd_configure(context.pointer, level, hashLog ?? 0), "configure")
        return context
    }

    /// Compresses `input` into a single zstd frame appended to `output`,
    /// with `context` (from `makeContext`): no context set up and no
    /// zero-filled output buffer per call.
    func compress(_ input: [UInt8], appendingTo output: inout [UInt8], context: ZstdCompressionContext) throws {
        let bound = try ZstdCall.check(ZSTD_compressBound(input.count), "compressBound")
        var result = 0
        input.withUnsafeBytes { source in
            output.append(addingCapacity: bound) { span in
                span.withUnsafeMutableBufferPointer { room, initialized in
                    result = ZSTD_compress2(
                        context.pointer, room.baseAddress, room.count, source.baseAddress, source.count)
                    if ZSTD_isError(result) == 0 { initialized = result }
                }
            }
        }
        try ZstdCall.check(result, "compress")
    }

    /// Decompresses one frame whose decompressed size the caller knows (Parquet
    /// page headers carry it); any other size is an error.
    func decompress(_ input: [UInt8], expectedSize: Int) throws -> [UInt8] {
        guard expectedSize > 0 else {
            if input.isEmpty { return [] }
            // An empty page still compresses to a (tiny) frame; decode into a 1-byte scratch.
            var scratch = [UInt8](repeating: 0, count: 1)
            let produced = try Self.decompress(input, into: &scratch)
            guard produced == 0 else {
                throw ZstdError(operation: "decompress", message: "frame holds \(produced)+ bytes, page header says 0")
            }
            return []
        }
        var output = [UInt8](repeating: 0, count: expectedSize)
        let produced = try Self.decompress(input, into: &output)
        guard produced == expectedSize else {
            throw ZstdError(
                operation: "decompress",
                message: "frame holds \(produced) bytes, page header says \(expectedSize)"
            )
        }
        return output
    }

    private static func decompress(_ input: [UInt8], into output: inout [UInt8]) throws -> Int {
        try input.withUnsafeBytes { source in
            try output.withUnsafeMutableBytes { destination in
                try ZstdCall.check(
                    ZSTD_decompress(destination.baseAddress, destination.count, source.baseAddress, source.count),
                    "decompress"
                )
            }
        }
    }

}

/// A zstd compression context, kept for many frames (the pages of a column
/// chunk) by one thread at a time.
final class ZstdCompressionContext {
    fileprivate let pointer: OpaquePointer

    init() throws {
        guard let pointer = ZSTD_createCCtx() else {
            throw ZstdError(operation: "createCCtx", message: "out of memory")
        }
        self.pointer = pointer
    }

    deinit { ZSTD_freeCCtx(pointer) }
}
