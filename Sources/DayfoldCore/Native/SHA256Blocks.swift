import CKernels

/// A SHA-256 computed by the CPU's SHA instructions alone (`CKernels`),
/// whole 64-byte blocks at a time, with the padding done here: the two-lane
/// file digests (`FileDigests`) need no library's internals. Use only when
/// `SHA256Hasher.pairedBlocks` (the instructions are there).
struct SHA256Blocks {
    /// The eight working words h0..h7 (FIPS 180-4).
    private var state: [UInt32] = SHA256Hasher.initialState
    /// Bytes compressed so far.
    private var byteCount = 0

    /// Compresses `blocks` whole blocks at `bytes`.
    mutating func compress(_ bytes: UnsafePointer<UInt8>, blocks: Int) {
        state.withUnsafeMutableBufferPointer { words in
            guard let words = words.baseAddress else { return }
            dayfold_sha256_blocks(words, bytes, nil, nil, blocks)
        }
        byteCount += 64 * blocks
    }

    /// Compresses `blocks` whole blocks of `a` into `first` and as many of
    /// `b` into `second`, side by side (each fills the other's waits).
    static func compress(
        _ first: inout SHA256Blocks, _ a: UnsafePointer<UInt8>, _ second: inout SHA256Blocks,
        _ b: UnsafePointer<UInt8>, blocks: Int
    ) {
        first.state.withUnsafeMutableBufferPointer { wordsA in
            second.state.withUnsafeMutableBufferPointer { wordsB in
                guard let stateA = wordsA.baseAddress, let stateB = wordsB.baseAddress else { return }
                dayfold_sha256_blocks(stateA, a, stateB, b, blocks)
            }
        }
        first.byteCount += 64 * blocks
        second.byteCount += 64 * blocks
    }

    /// The hex digest of everything compressed and then `tail` (fewer than
    /// 64 bytes): the tail, 0x80, zeros and the length in bits, in one
    /// block or two.
    mutating func finishHex(tail: UnsafeRawBufferPointer) -> String {
        precondition(tail.count < 64, "whole blocks go through compress")
        let bits = UInt64(byteCount + tail.count) &* 8
        let blocks = tail.count <= SHA256Hasher.maxSingleBlock ? 1 : 2
        var padded = [UInt8](repeating: 0, count: 64 * blocks)
        for (index, byte) in tail.enumerated() { padded[index] = byte }
        padded[tail.count] = 0x80
        for index in 0..<8 { padded[64 * blocks - 1 - index] = UInt8(truncatingIfNeeded: bits >> (8 * UInt64(index))) }
        padded.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            compress(base, blocks: blocks)
        }
        var hex: [UInt8] = []
        state.withUnsafeBufferPointer { SHA256Hasher.appendStateHex($0, into: &hex) }
        return String(decoding: hex, as: UTF8.self)
    }
}
