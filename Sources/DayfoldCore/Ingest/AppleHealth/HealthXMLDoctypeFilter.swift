/// Blanks out the document type declaration (`<!DOCTYPE HealthData [ … ]>`)
/// of an export before expat sees it.
///
/// Some iOS versions wrote a malformed internal subset (an `ATTLIST` that is
/// never closed), which expat rejects although the data after it is fine.
/// The DTD carries nothing the reader needs, so the whole declaration is
/// replaced byte for byte with spaces, keeping `\n` and `\r`: line numbers and
/// byte offsets stay those of the original file.
///
/// The prolog is held back until the declaration's end (or the root start
/// tag) is found; after that every chunk passes through untouched. The
/// internal subset ends at the first `]`, optional white space, `>` that is
/// not inside a comment or processing instruction; quotes are not tracked
/// there, because a malformed declaration may leave one open.
struct HealthXMLDoctypeFilter {
    /// A prolog longer than this is passed on unchanged (expat then judges it),
    /// so memory stays bounded whatever the input.
    static let maxPrologBytes = 16 << 20

    private var held: [UInt8] = []
    private var passingThrough = false
    /// Rescan only when the held bytes doubled, so tiny chunks stay linear.
    private var nextScanCount = 0

    /// The bytes of `chunk` that are ready for the parser (possibly none yet).
    mutating func filter(_ chunk: [UInt8]) -> [UInt8] {
        if passingThrough { return chunk }
        held.append(contentsOf: chunk)
        if held.count < nextScanCount { return [] }
        switch Self.scan(held) {
        case .needMore:
            if held.count > Self.maxPrologBytes { return release() }
            nextScanCount = held.count * 2
            return []
        case .noDoctype:
            return release()
        case .doctype(let range):
            blank(range)
            return release()
        }
    }

    /// The bytes still held at the end of the input.
    mutating func finish() -> [UInt8] {
        if passingThrough { return [] }
        if case .doctype(let range) = Self.scan(held) { blank(range) }
        return release()
    }

    private mutating func release() -> [UInt8] {
        passingThrough = true
        defer { held = [] }
        return held
    }

    private mutating func blank(_ range: Range<Int>) {
        for index in range where held[index] != Self.newline && held[index] != Self.carriageReturn {
            held[index] = Self.space
        }
    }

    enum ScanResult: Equatable {
        case needMore
        case noDoctype
        case doctype(Range<Int>)
    }

    /// Walks the prolog: XML declaration, comments and processing instructions
    /// are stepped over; the first other markup is either the DOCTYPE or the root.
    static func scan(_ bytes: [UInt8]) -> ScanResult {
        var index = 0
        while true {
            guard let open = firstIndex(of: less, in: bytes, from: index) else { return .needMore }
            guard open + 1 < bytes.count else { return .needMore }
            switch bytes[open + 1] {
            case question:
                guard let end = firstIndex(of: piEnd, in: bytes, from: open + 2) else { return .needMore }
                index = end + piEnd.count
            case bang:
                if let prefixMatch = startsWith(commentStart, in: bytes, at: open) {
                    guard prefixMatch else { return .needMore }
                    guard let end = firstIndex(of: commentEnd, in: bytes, from: open + 4) else { return .needMore }
                    index = end + commentEnd.count
                } else if let prefixMatch = startsWith(doctypeStart, in: bytes, at: open) {
                    guard prefixMatch else { return .needMore }
                    guard let end = doctypeEnd(bytes, from: open + doctypeStart.count) else { return .needMore }
                    return .doctype(open..<end)
                } else {
                    return .noDoctype
                }
            default:
                return .noDoctype
            }
        }
    }

    /// The index just past the `>` closing a DOCTYPE whose name starts at `start`.
    private static func doctypeEnd(_ bytes: [UInt8], from start: Int) -> Int? {
        var index = start
        var quote: UInt8?
        // Name and external id: quoted literals may hold `[` or `>`.
        while index < bytes.count {
            let byte = bytes[index]
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == doubleQuote || byte == singleQuote {
                quote = byte
            } else if byte == greater {
                return index + 1
            } else if byte == openBracket {
                return internalSubsetEnd(bytes, from: index + 1)
            }
            index += 1
        }
        return nil
    }

    private static func internalSubsetEnd(_ bytes: [UInt8], from start: Int) -> Int? {
        var index = start
        while index < bytes.count {
            let byte = bytes[index]
            if byte == less {
                if let prefixMatch = startsWith(commentStart, in: bytes, at: index) {
                    guard prefixMatch, let end = firstIndex(of: commentEnd, in: bytes, from: index + 4) else {
                        return nil
                    }
                    index = end + commentEnd.count
                    continue
                }
                if let prefixMatch = startsWith(piStart, in: bytes, at: index) {
                    guard prefixMatch, let end = firstIndex(of: piEnd, in: bytes, from: index + 2) else {
                        return nil
                    }
                    index = end + piEnd.count
                    continue
                }
            } else if byte == closeBracket {
                var after = index + 1
                while after < bytes.count, isWhitespace(bytes[after]) { after += 1 }
                guard after < bytes.count else { return nil }
                if bytes[after] == greater { return after + 1 }
            }
            index += 1
        }
        return nil
    }

    /// `true` when `pattern` starts at `index`, `nil` when it does not, `false`
    /// when the bytes end before that can be decided (the caller asks for more).
    private static func startsWith(_ pattern: [UInt8], in bytes: [UInt8], at index: Int) -> Bool? {
        for offset in pattern.indices {
            guard index + offset < bytes.count else { return false }
            if bytes[index + offset] != pattern[offset] { return nil }
        }
        return true
    }

    private static func firstIndex(of byte: UInt8, in bytes: [UInt8], from start: Int) -> Int? {
        var index = start
        while index < bytes.count {
            if bytes[index] == byte { return index }
            index += 1
        }
        return nil
    }

    private static func firstIndex(of pattern: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        var index = start
        while index + pattern.count <= bytes.count {
            if bytes[index] == pattern[0], startsWith(pattern, in: bytes, at: index) == true { return index }
            index += 1
        }
        return nil
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == space || byte == newline || byte == carriageReturn || byte == tab
    }

    private static let less = UInt8(ascii: "<")
    private static let greater = UInt8(ascii: ">")
    private static let question = UInt8(ascii: "?")
    private static let bang = UInt8(ascii: "!")
    private static let openBracket = UInt8(ascii: "[")
    private static let closeBracket = UInt8(ascii: "]")
    private static let doubleQuote = UInt8(ascii: "\"")
    private static let singleQuote = UInt8(ascii: "'")
    private static let space = UInt8(ascii: " ")
    private static let tab = UInt8(ascii: "\t")
    private static let newline = UInt8(ascii: "\n")
    private static let carriageReturn = UInt8(ascii: "\r")
    private static let commentStart = Array("<!--".utf8)
    private static let commentEnd = Array("-->".utf8)
    private static let piStart = Array("<?".utf8)
    private static let piEnd = Array("?>".utf8)
    private static let doctypeStart = Array("<!DOCTYPE".utf8)
}
