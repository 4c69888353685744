/// The last bytes fed to the parser, kept to quote the physical line that
/// holds a start tag (the `raw` of a rejects row) without keeping the file.
///
/// The window is the current chunk plus the tail of the previous ones
/// (`carriedBytes`), so memory stays flat. The quote runs from the start of the
/// tag's first line to the end of the line where the tag ends (one line for
/// Apple's exports). A line longer than `maxRawBytes` is quoted from its start
/// tag, and every quote is cut at `maxRawBytes`.
struct HealthXMLLineWindow {
    static let maxRawBytes = 8 << 10
    /// Enough for a pending line (< `maxRawBytes` so far) and a start tag that
    /// began in the previous chunk (a longer tag is kept from its `<`).
    static let carriedBytes = 2 * maxRawBytes

    private var bytes: [UInt8] = []
    /// Offset in the file of `bytes[0]`.
    private var base = 0

    /// Offset in the file just past the last byte seen.
    var end: Int { base + bytes.count }

    mutating func append(_ chunk: [UInt8]) {
        // A start tag longer than the carried bytes is kept whole, with the
        // quote limit before it, so its quote does not depend on where the
        // chunks were cut (and equals the fast reader's).
        var keep = min(bytes.count, Self.carriedBytes)
        if let lastOpen = bytes.lastIndex(of: UInt8(ascii: "<")) {
            keep = max(keep, bytes.count - max(0, lastOpen - Self.maxRawBytes - 1))
        }
        let newBase = end - keep
        if keep == 0 {
            bytes = chunk
        } else {
            var next: [UInt8] = []
            next.reserveCapacity(keep + chunk.count)
            next.append(contentsOf: bytes[(bytes.count - keep)...])
            next.append(contentsOf: chunk)
            bytes = next
        }
        base = newBase
    }

    /// The text of the line(s) holding the start tag at `tagStart..<tagEnd` (no
    /// final line terminator), or `nil` while the line's end has not been seen yet
    /// (unless `isFinal`: the input ended, so the line ends there).
    func rawLine(tagStart: Int, tagEnd: Int, isFinal: Bool) -> String? {
        Self.rawLine(in: bytes, base: base, tagStart: tagStart, tagEnd: tagEnd, isFinal: isFinal)
    }

    /// The same quote over any window: `bytes[0]` is the file's byte `base`
    /// (the fast reader's window keeps at least `carriedBytes` before a tag).
    static func rawLine(in bytes: [UInt8], base: Int, tagStart: Int, tagEnd: Int, isFinal: Bool) -> String? {
        rawLineRange(in: bytes, base: base, tagStart: tagStart, tagEnd: tagEnd, isFinal: isFinal).map {
            String(decoding: bytes[$0], as: UTF8.self)
        }
    }

    /// Where that quote lies in `bytes` (indexes, not file offsets).
    static func rawLineRange(in bytes: [UInt8], base: Int, tagStart: Int, tagEnd: Int, isFinal: Bool) -> Range<Int>? {
        let end = base + bytes.count
        let newline = UInt8(ascii: "\n")
        let tag = max(tagStart, base)
        let lowest = max(base, tag - Self.maxRawBytes)
        var lineStart = tag
        while lineStart > lowest && bytes[lineStart - 1 - base] != newline { lineStart -= 1 }
        let foundLineStart = lineStart == 0 || (lineStart > base && bytes[lineStart - 1 - base] == newline)
        let rawStart = foundLineStart ? lineStart : tag
        let limit = rawStart + Self.maxRawBytes
        var lineEnd = min(max(tagEnd, tag), end, limit)
        while lineEnd < end && lineEnd < limit && bytes[lineEnd - base] != newline { lineEnd += 1 }
        if lineEnd == end && lineEnd < limit && !isFinal { return nil }
        if lineEnd > rawStart && bytes[lineEnd - 1 - base] == UInt8(ascii: "\r") { lineEnd -= 1 }
        return (rawStart - base)..<(lineEnd - base)
    }
}
