import CCrypto

/// SHA-256 through OpenSSL's libcrypto (a well-kept implementation rather
/// than a hand-written one).
public struct SHA256Hasher {
    private var context = SHA256_CTX()

    public init() { SHA256_Init(&context) }

    public mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { buffer in _ = SHA256_Update(&context, buffer.baseAddress, buffer.count) }
    }

    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        _ = SHA256_Update(&context, bytes.baseAddress, bytes.count)
    }

    public mutating func finalizeHex() -> String {
        var hex: [UInt8] = []
        finalizeHex(into: &hex)
        return String(decoding: hex, as: UTF8.self)
    }

    /// Appends the hex digest to `output` (no allocation of its own).
    mutating func finalizeHex(into output: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Int(SHA256_DIGEST_LENGTH)) { digest in
            _ = SHA256_Final(digest.baseAddress, &context)
            appendHexDigits(digest, into: &output)
        }
    }

    /// Hex digest of a string's UTF-8 bytes.
    public static func hex(_ text: String) -> String {
        var hasher = SHA256Hasher()
        hasher.update(Array(text.utf8))
        return hasher.finalizeHex()
    }

    /// Appends the hex digest of `message` to `output`, allocating nothing:
    /// per-row ids (the event snapshot's) are digests of short messages.
    static func appendHex(of message: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) {
        // The context calls, not the one-shot `SHA256()`: in OpenSSL 3 that
        // one looks the algorithm up again on every call.
        var hasher = SHA256Hasher()
        hasher.update(UnsafeRawBufferPointer(message))
        hasher.finalizeHex(into: &output)
    }

    /// Hex digest of a file, streamed.
    public static func hex(file path: String) throws -> String {
        let stream = try FileByteStream(path: path)
        var hasher = SHA256Hasher()
        var chunk: [UInt8] = []
        while try stream.append(to: &chunk) {
            hasher.update(chunk)
            chunk.removeAll(keepingCapacity: true)
        }
        return hasher.finalizeHex()
    }
}

private let hexDigits = Array("0123456789abcdef".utf8)

/// Two lowercase hex digits per byte.
func appendHexDigits(_ bytes: some Sequence<UInt8>, into output: inout [UInt8]) {
    for byte in bytes {
        output.append(hexDigits[Int(byte >> 4)])
        output.append(hexDigits[Int(byte & 0x0F)])
    }
}
