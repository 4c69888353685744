import CZstd

/// Decompresses a zstd stream chunk by chunk (`ZSTD_decompressStream`), so a
/// file larger than memory streams through. A stream that ends inside a frame
/// is reported as truncated rather than silently accepted.
public final class ZstdByteStream: ByteStream {
    private let source: ByteStream
    private let context: OpaquePointer
    private let path: String
    private var input: [UInt8] = []
    private var inputPosition = 0
    private var sourceDone = false
    private var lastResult: Int = 0
    private var sawInput = false
    private let outputSize = ZSTD_DStreamOutSize()

    init(source: ByteStream, path: String) throws {
        guard let context = ZSTD_createDCtx() else {
            throw ByteStreamError(kind: .zstd, path: path, detail: "cannot create a decompression context")
        }
        self.source = source
        self.context = context
        self.path = path
    }

    deinit { ZSTD_freeDCtx(context) }

    private func check(_ code: Int) throws -> Int {
        if ZSTD_isError(code) != 0 {
            throw ByteStreamError(kind: .zstd, path: path, detail: String(cString: ZSTD_getErrorName(code)))
        }
        return code
    }

    public func nextChunk() throws -> [UInt8]? {
        var output = [UInt8](repeating: 0, count: outputSize)
        while true {
            if inputPosition >= input.count && !sourceDone {
                if let chunk = try source.nextChunk() {
                    input = chunk
                    inputPosition = 0
                    sawInput = true
                } else {
                    sourceDone = true
                }
            }
            if inputPosition >= input.count && sourceDone {
                // Everything consumed: a non-zero last hint means a frame was cut short.
                if !sawInput {
                    throw ByteStreamError(kind: .zstd, path: path, detail: "empty file is not a zstd frame")
                }
                if lastResult != 0 {
                    throw ByteStreamError(kind: .zstd, path: path, detail: "truncated zstd stream (premature end)")
                }
                return nil
            }
            let produced: Int = try input.withUnsafeBytes { inBytes in
                try output.withUnsafeMutableBytes { outBytes in
                    var inBuffer = ZSTD_inBuffer(src: inBytes.baseAddress, size: inBytes.count, pos: inputPosition)
                    var outBuffer = ZSTD_outBuffer(dst: outBytes.baseAddress, size: outBytes.count, pos: 0)
                    lastResult = try check(ZSTD_decompressStream(context, &outBuffer, &inBuffer))
                    inputPosition = inBuffer.pos
                    return outBuffer.pos
                }
            }
            if produced > 0 {
                output.removeSubrange(produced...)
                return output
            }
        }
    }
}
