import CZlib

/// Decompresses a gzip stream chunk by chunk (zlib's `inflate`), so a
/// `*.csv.gz` larger than memory streams through like a `.zst` file.
/// Concatenated gzip members (what `cat a.gz b.gz` makes) are read one after
/// the other, as `gzip -d` does. A stream that ends inside a member, or bytes
/// that are not gzip, fail with zlib's own message.
public final class GzipByteStream: ByteStream {
    private var input: CompressedInput
    private let path: String
    /// Allocated once so that zlib may keep pointers into it between calls.
    private let stream: UnsafeMutablePointer<z_stream>
    /// True between a member's header and its end (bytes owed).
    private var insideMember = false
    private let outputSize = 128 << 10

    init(source: ByteStream, path: String) throws {
        input = CompressedInput(source: source)
        self.path = path
        stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        let code = dayfold_inflate_init_gzip(stream)
        guard code == Z_OK else {
            stream.deallocate()
            throw ByteStreamError(kind: .gzip, path: path, detail: "cannot start zlib (code \(code))")
        }
    }

    deinit {
        inflateEnd(stream)
        stream.deallocate()
    }

    /// zlib's message for `code` (the stream's `msg` when it set one).
    private func failure(_ code: Int32, _ what: String) -> ByteStreamError {
        let message = stream.pointee.msg.map { String(cString: $0) } ?? String(cString: zError(code))
        return ByteStreamError(kind: .gzip, path: path, detail: "\(what): \(message)")
    }

    public func nextChunk() throws -> [UInt8]? {
        var output = [UInt8](repeating: 0, count: outputSize)
        while true {
            guard try input.refill() else {
                if !input.sawInput {
                    throw ByteStreamError(kind: .gzip, path: path, detail: "empty file is not a gzip stream")
                }
                if insideMember {
                    throw ByteStreamError(
                        kind: .gzip, path: path, detail: "truncated gzip stream (unexpected end of file)")
                }
                return nil
            }
            if !insideMember {
                // A new member starts here (the first, or one concatenated after the last).
                let code = inflateReset(stream)
                guard code == Z_OK else { throw failure(code, "inflateReset") }
                insideMember = true
            }
            let position = input.position
            let (code, consumed, produced) = input.bytes.withUnsafeBytes { inBytes in
                output.withUnsafeMutableBytes { outBytes in
                    let available = inBytes.count - position
                    // zlib's `next_in` is not const but it never writes through it.
                    stream.pointee.next_in = inBytes.baseAddress.map {
                        UnsafeMutablePointer(mutating: $0.advanced(by: position).assumingMemoryBound(to: Bytef.self))
                    }
                    stream.pointee.avail_in = uInt(available)
                    stream.pointee.next_out = outBytes.baseAddress?.assumingMemoryBound(to: Bytef.self)
                    stream.pointee.avail_out = uInt(outBytes.count)
                    let code = inflate(stream, Z_NO_FLUSH)
                    let consumed = available - Int(stream.pointee.avail_in)
                    let produced = outBytes.count - Int(stream.pointee.avail_out)
                    stream.pointee.next_in = nil
                    stream.pointee.next_out = nil
                    return (code, consumed, produced)
                }
            }
            input.position += consumed
            switch code {
            case Z_OK:
                break
            case Z_STREAM_END:
                insideMember = false
            case Z_BUF_ERROR where consumed == 0 && produced == 0:
                // No progress possible with what is here: read more input
                // (at the end of the file this is a truncated stream, above).
                break
            default:
                throw failure(code, "inflate")
            }
            if produced > 0 {
                output.removeSubrange(produced...)
                return output
            }
        }
    }
}
