import CCrypto
import CKernels

/// SHA-256 of a stream of bytes, through OpenSSL's EVP interface (a
/// well-kept implementation rather than a hand-written one). Not copyable:
/// it owns its OpenSSL context, freed when the hasher goes away.
public struct SHA256Hasher: ~Copyable {
    private let context: OpaquePointer?

    public init() {
        context = EVP_MD_CTX_new()
        if let context { EVP_DigestInit_ex(context, EVP_sha256(), nil) }
    }

    deinit { EVP_MD_CTX_free(context) }

    public mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// 64-bit words, each as its 8 bytes in this machine's order (little
    /// endian on every platform dayfold is built for): for digests of
    /// fingerprints, which are never compared across machines.
    mutating func update(words: [UInt64]) {
        words.withUnsafeBytes { update($0) }
    }

    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard let context, let base = bytes.baseAddress else { return }
        EVP_DigestUpdate(context, base, bytes.count)
    }

    /// The hex digest of everything given to `update`; call once.
    public mutating func finalizeHex() -> String {
        var hex: [UInt8] = []
        finalizeHex(into: &hex)
        return String(decoding: hex, as: UTF8.self)
    }

    /// Appends the hex digest to `output` (no allocation of its own).
    mutating func finalizeHex(into output: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Int(EVP_MAX_MD_SIZE)) { digest in
            var length: UInt32 = 0
            if let context { EVP_DigestFinal_ex(context, digest.baseAddress, &length) }
            appendHexDigits(UnsafeBufferPointer(rebasing: digest[0..<Int(length)]), into: &output)
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
        guard pairedBlocks, message.count <= maxSingleBlock else {
            var hasher = SHA256Hasher()
            hasher.update(UnsafeRawBufferPointer(message))
            hasher.finalizeHex(into: &output)
            return
        }
        // A message that fits one block with its padding is one compression
        // call by the SHA instructions: a context's init, update and final
        // cost more than the block itself on a 40-byte id (a million of them per run).
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64) { block in
            withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 8) { words in
                guard let base = block.baseAddress, let state = words.baseAddress else { return }
                block.initialize(repeating: 0)
                padBlock(message, into: base)
                for index in 0..<8 { words[index] = initialState[index] }
                dayfold_sha256_blocks(state, base, nil, nil, 1)
                appendStateHex(UnsafeBufferPointer(words), into: &output)
            }
        }
    }

    /// Appends the digest held in state words `words` (big-endian): eight
    /// hex digits each, made a word at a time.
    static func appendStateHex(_ words: UnsafeBufferPointer<UInt32>, into output: inout [UInt8]) {
        output.append(addingCapacity: 8 * words.count) { span in
            span.withUnsafeMutableBufferPointer { room, initialized in
                guard let target = UnsafeMutableRawPointer(room.baseAddress) else { return }
                for (index, word) in words.enumerated() {
                    target.storeBytes(of: hexDigits(of: word).littleEndian, toByteOffset: 8 * index, as: UInt64.self)
                }
                initialized = 8 * words.count
            }
        }
    }

    /// The longest message one 64-byte block holds with its padding (a 0x80
    /// byte and the 8-byte length).
    static let maxSingleBlock = 55

    /// Appends the hex digests of `first`, then of `second`. Two short
    /// messages go through the CPU's SHA instructions side by side: one
    /// block alone waits on the latency of each round, and a second,
    /// independent block fills those waits (the event snapshot hashes a
    /// million ids a run). Longer messages, or a CPU without the
    /// instructions, take `appendHex` one by one: same digests.
    static func appendHexOfPair(
        _ first: UnsafeBufferPointer<UInt8>, _ second: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]
    ) {
        guard pairedBlocks, first.count <= maxSingleBlock, second.count <= maxSingleBlock else {
            appendHex(of: first, into: &output)
            appendHex(of: second, into: &output)
            return
        }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 128) { blocks in
            withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 16) { words in
                guard let base = blocks.baseAddress, let state = words.baseAddress else { return }
                blocks.initialize(repeating: 0)
                padBlock(first, into: base)
                padBlock(second, into: base + 64)
                for index in 0..<16 { words[index] = initialState[index & 7] }
                dayfold_sha256_blocks(state, base, state + 8, base + 64, 1)
                // The sixteen state words are the two digests, one after the other.
                appendStateHex(UnsafeBufferPointer(words), into: &output)
            }
        }
    }

    /// Writes `message` and its padding (0x80, zeros, the length in bits)
    /// as the one block at `block`, whose 64 bytes are already zero.
    static func padBlock(_ message: UnsafeBufferPointer<UInt8>, into block: UnsafeMutablePointer<UInt8>) {
        if let source = message.baseAddress { block.update(from: source, count: message.count) }
        block[message.count] = 0x80
        let bits = UInt64(message.count) &* 8
        for index in 0..<8 { block[63 - index] = UInt8(truncatingIfNeeded: bits >> (8 * UInt64(index))) }
    }

    /// Whether `appendHexOfPair` can use the SHA instructions (asked once).
    static let pairedBlocks = dayfold_sha256_ni_available() != 0

    /// FIPS 180-4's initial hash value H(0).
    static let initialState: [UInt32] = [
        0x6A09_E667, 0xBB67_AE85, 0x3C6E_F372, 0xA54F_F53A, 0x510E_527F, 0x9B05_688C, 0x1F83_D9AB, 0x5BE0_CD19,
    ]

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

/// The eight lowercase hex digits of `word`, most significant first, as the
/// bytes of a little-endian UInt64: each nibble is spread into its own byte,
/// then turned into a digit by adding '0', plus 39 more for 10–15 (all
/// eight at once, with no table and no branch).
@inline(__always) func hexDigits(of word: UInt32) -> UInt64 {
    var spread = UInt64(word)
    spread = ((spread & 0xFFFF_0000) << 16) | (spread & 0x0000_FFFF)
    spread = ((spread & 0x0000_FF00_0000_FF00) << 8) | (spread & 0x0000_00FF_0000_00FF)
    spread = ((spread & 0x00F0_00F0_00F0_00F0) << 4) | (spread & 0x000F_000F_000F_000F)
    // Byte k now holds nibble k (least significant first): reverse for reading order.
    spread = spread.byteSwapped
    let letters = ((spread &+ 0x0606_0606_0606_0606) >> 4) & 0x0101_0101_0101_0101
    return spread &+ 0x3030_3030_3030_3030 &+ letters &* 0x27
}

/// Two lowercase hex digits per byte, written into room taken once.
func appendHexDigits(_ bytes: some Collection<UInt8>, into output: inout [UInt8]) {
    output.append(addingCapacity: 2 * bytes.count) { span in
        for byte in bytes {
            span.append(hexDigits[Int(byte >> 4)])
            span.append(hexDigits[Int(byte & 0x0F)])
        }
    }
}
