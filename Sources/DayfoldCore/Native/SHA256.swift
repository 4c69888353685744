import CCrypto
import CSystem

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

    /// Lets code of its own compress whole 64-byte blocks into this hash
    /// (`FileDigests`, two files side by side): `body` gets the eight state
    /// words, and `byteCount` bytes are then counted as hashed, so `update`
    /// and `finalizeHex` go on from there (OpenSSL pads the end). Only at a
    /// block boundary, for whole blocks.
    mutating func compressWholeBlocks(_ byteCount: Int, _ body: (UnsafeMutablePointer<UInt32>) -> Void) {
        precondition(context.num == 0 && byteCount % 64 == 0, "whole blocks only, at a block boundary")
        withUnsafeMutableBytes(of: &context.h) { words in
            guard let state = words.baseAddress?.assumingMemoryBound(to: UInt32.self) else { return }
            body(state)
        }
        let bits = (UInt64(context.Nh) << 32 | UInt64(context.Nl)) &+ UInt64(byteCount) &* 8
        context.Nl = UInt32(truncatingIfNeeded: bits)
        context.Nh = UInt32(truncatingIfNeeded: bits >> 32)
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
        guard message.count <= maxSingleBlock else {
            // The context calls, not the one-shot `SHA256()`: in OpenSSL 3 that
            // one looks the algorithm up again on every call.
            var hasher = SHA256Hasher()
            hasher.update(UnsafeRawBufferPointer(message))
            hasher.finalizeHex(into: &output)
            return
        }
        // A message that fits one block with its padding is hashed by one
        // compression call: `Update` and `Final` cost more than the block
        // itself on a 40-byte id (a million of them per run).
        var hasher = SHA256Hasher()
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64) { block in
            guard let base = block.baseAddress else { return }
            block.initialize(repeating: 0)
            padBlock(message, into: base)
            SHA256_Transform(&hasher.context, base)
        }
        withUnsafeBytes(of: hasher.context.h) { appendStateHex($0.assumingMemoryBound(to: UInt32.self), into: &output) }
    }

    /// Appends the digest held in state words `words` (big-endian): eight
    /// hex digits each, made a word at a time.
    private static func appendStateHex(_ words: UnsafeBufferPointer<UInt32>, into output: inout [UInt8]) {
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
    private static func padBlock(_ message: UnsafeBufferPointer<UInt8>, into block: UnsafeMutablePointer<UInt8>) {
        if let source = message.baseAddress { block.update(from: source, count: message.count) }
        block[message.count] = 0x80
        let bits = UInt64(message.count) &* 8
        for index in 0..<8 { block[63 - index] = UInt8(truncatingIfNeeded: bits >> (8 * UInt64(index))) }
    }

    /// Whether `appendHexOfPair` can use the SHA instructions (asked once).
    private static let pairedBlocks = dayfold_sha256_ni_available() != 0

    /// FIPS 180-4's initial hash value H(0).
    private static let initialState: [UInt32] = [
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
