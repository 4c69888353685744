import CZstd

/// Decompresses a zstd stream chunk by chunk (`ZSTD_decompressStream`), so a
/// file larger than memory streams through. A stream that ends inside a frame
/// is reported as truncated rather than silently accepted.
public final class ZstdByteStream: ByteStream {
    private var input: CompressedInput
    private let context: OpaquePointer
    private let path: String
    private var lastResult: Int = 0
    private let outputSize = ZSTD_DStreamOutSize()

    init(source: ByteStream, path: String) throws {
        guard let context = ZSTD_createDCtx() else {
            throw ByteStreamError(kind: .zstd, path: path, detail: "cannot create a decompression context")
        }
        input = CompressedInput(source: source)
        self.context = context
        self.path = path
    }

    deinit { ZSTD_freeDCtx(context) }

    private func check(_ code: Int) throws -> Int {
        do {
            return try ZstdCall.check(code, "decompress")
        } catch {
            throw ByteStreamError(kind: .zstd, path: path, detail: error.message)
        }
    }

    public func nextChunk() throws -> [UInt8]? {
        var output = [UInt8](repeating: 0, count: outputSize)
        while true {
            guard try input.refill() else {
                // Everything consumed: a non-zero last hint means a frame was cut short.
                if !input.sawInput {
                    throw ByteStreamError(kind: .zstd, path: path, detail: "empty file is not a zstd frame")
                }
                if lastResult != 0 {
                    throw ByteStreamError(kind: .zstd, path: path, detail: "truncated zstd stream (premature end)")
                }
                return nil
            }
            let position = input.position
            let (consumed, produced, result): (Int, Int, Int) = input.bytes.withUnsafeBytes { inBytes in
                output.withUnsafeMutableBytes { outBytes in
                    var inBuffer = ZSTD_inBuffer(src: inBytes.baseAddress, size: inBytes.count, pos: position)
                    var outBuffer = ZSTD_outBuffer(dst: outBytes.baseAddress, size: outBytes.count, pos: 0)
                    let result = ZSTD_decompressStream(context, &outBuffer, &inBuffer)
                    return (inBuffer.pos, outBuffer.pos, result)
                }
            }
            lastResult = try check(result)
            input.position = consumed
            if produced > 0 {
                output.removeSubrange(produced...)
                return output
            }
        }
    }
}
