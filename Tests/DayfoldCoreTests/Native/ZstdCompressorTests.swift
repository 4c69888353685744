import Testing

@testable import DayfoldCore

/// The Parquet page settings: text columns (random ids, mostly) at level −3
/// with literals still Huffman-coded; every page a frame that decodes back.
@Suite struct ZstdCompressorTests {
    /// 20,000 hex digests of 64 digits, each with its 4-byte PLAIN length prefix.
    private func hexIDPage() -> [UInt8] {
        var page: [UInt8] = []
        for index in 0..<20_000 {
            page += [64, 0, 0, 0]
            Array("id-\(index)".utf8).withUnsafeBufferPointer { SHA256Hasher.appendHex(of: $0, into: &page) }
        }
        return page
    }

    private func compressed(_ page: [UInt8], _ settings: ZstdCompressor) throws -> [UInt8] {
        var output: [UInt8] = []
        try settings.compress(page, appendingTo: &output, context: settings.makeContext())
        return output
    }

    @Test func textSettingsStillHuffmanCodeRandomHex() throws {
        let page = hexIDPage()
        let text = try compressed(page, ZstdCompressor.text)
        let level1 = try compressed(page, ZstdCompressor())
        // Hex digits carry 4 bits a byte: Huffman-coded literals take about
        // half the page; left raw (negative levels' default) they take all of it.
        #expect(Double(text.count) < 0.6 * Double(page.count))
        #expect(Double(text.count) < 1.02 * Double(level1.count))
        #expect(try ZstdCompressor().decompress(text, expectedSize: page.count) == page)
    }

    @Test func repetitiveTextStillCompressesToAlmostNothing() throws {
        let page = Array(repeating: [36, 0, 0, 0] + Array("5fec1668-1e26-4fd5-b50b-e3b19489539f".utf8), count: 20_000)
            .flatMap { $0 }
        let text = try compressed(page, ZstdCompressor.text)
        #expect(text.count < page.count / 200)
        #expect(try ZstdCompressor().decompress(text, expectedSize: page.count) == page)
    }

    @Test func aContextKeepsItsSettingsAcrossPages() throws {
        let settings = ZstdCompressor.text
        let context = try settings.makeContext()
        let page = hexIDPage()
        var first: [UInt8] = []
        var second: [UInt8] = []
        try settings.compress(page, appendingTo: &first, context: context)
        try settings.compress(page, appendingTo: &second, context: context)
        #expect(first == second)
        #expect(first == (try compressed(page, settings)))
    }
}
