/// The compressed bytes a decompressing stream (`ZstdByteStream`,
/// `GzipByteStream`) takes from its source one chunk at a time, and how far
/// the decompressor got into the current chunk.
struct CompressedInput {
    let source: ByteStream
    private(set) var bytes: [UInt8] = []
    /// Bytes of `bytes` the decompressor has consumed.
    var position = 0
    /// Whether the source gave any byte at all (an empty file is no stream).
    private(set) var sawInput = false
    private var sourceDone = false

    init(source: ByteStream) { self.source = source }

    /// Takes the next chunk once the current one is consumed; false when
    /// every byte is consumed and the source has ended.
    mutating func refill() throws -> Bool {
        if position >= bytes.count && !sourceDone {
            if let chunk = try source.nextChunk() {
                bytes = chunk
                position = 0
                sawInput = sawInput || !chunk.isEmpty
            } else {
                sourceDone = true
            }
        }
        return position < bytes.count || !sourceDone
    }
}
