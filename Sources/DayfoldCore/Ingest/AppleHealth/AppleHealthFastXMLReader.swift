/// How a fast read of an Apple Health export ended.
enum HealthXMLFastOutcome: Equatable {
    /// The whole file was read: it is well-formed and every child was reported.
    case read
    /// The file holds something outside the fast reader's subset (or is not
    /// well-formed, or its stream failed): what it reported must be taken back
    /// and the file read again by `AppleHealthXMLReader` (expat), which
    /// either accepts it or names the error and its line.
    case needsExpat(String)
}

/// The fast reader of Apple Health exports (issue 24): the prolog checked by
/// expat, the body by a block scanner (`HealthXMLBlockScanner`) that only
/// accepts what expat accepts, with the same rows.
///
/// Two stages: the scanner walks the body in the stream's blocks (1 MiB)
/// and finds the direct children of `HealthData`; the caller decodes only
/// the attributes it uses, as byte ranges. Anything the scanner does not
/// fully understand (CDATA, a comment or processing instruction in the
/// body, character data, an unknown entity, a malformed tag, non-UTF-8
/// bytes, a root that is not `HealthData`) ends the fast read with
/// `.needsExpat`: a file is never accepted by one reader and refused by the
/// other, and every error is expat's, with expat's line.
///
/// ```swift
/// let outcome = try AppleHealthFastXMLReader.read(stream) { child in
///     if child.isRecord { decide(child.value(.type, into: &buffer), …) }
/// }
/// if outcome != .read { /* take back, then AppleHealthXMLReader.read(reopened) */ }
/// ```
enum AppleHealthFastXMLReader {
    /// A prolog (through the root start tag) longer than this goes to expat.
    static let maxPrologBytes = 16 << 20

    /// Streams the file; calls `onChild` for every direct child of the root
    /// `HealthData`, in document order.
    /// - Throws: only what `onChild` throws (reading stops there).
    static func read(_ stream: ByteStream, onChild: (HealthXMLChildView) throws -> Void) throws
        -> HealthXMLFastOutcome
    {
        var doctypeFilter = HealthXMLDoctypeFilter()
        var prolog: [UInt8] = []
        var scanner: HealthXMLBlockScanner?
        while true {
            let chunk: [UInt8]?
            do {
                chunk = try stream.nextChunk()
            } catch {
                return .needsExpat("the stream failed: expat's read reports it in order")
            }
            let isFinal = chunk == nil
            let ready = chunk.map { doctypeFilter.filter($0) } ?? doctypeFilter.finish()
            // The scanner's window starts with the prolog, which holds `ready` already.
            var appending = ready
            if scanner == nil {
                appending = []
                prolog.append(contentsOf: ready)
                switch start(prolog) {
                case .needMore:
                    if isFinal || prolog.count > maxPrologBytes { return .needsExpat("no root start tag") }
                    continue
                case .unsupported(let why):
                    return .needsExpat(why)
                case .started(let started):
                    scanner = started
                }
            }
            guard let scanner else { continue }
            let status = try scanner.scan(appending: appending, isFinal: isFinal) {
                try onChild(HealthXMLChildView(scanner: scanner, child: $0))
            }
            prolog = []
            switch status {
            case .more:
                if isFinal { return .needsExpat("the document is unfinished") }
            case .done:
                return .read
            case .bail(let reason, let offset):
                return .needsExpat("outside the fast subset (reason \(reason)) at byte \(offset)")
            }
        }
    }

    private enum Start {
        case needMore
        case unsupported(String)
        case started(HealthXMLBlockScanner)
    }

    /// Checks the prolog and root start tag once they are all in `bytes`
    /// and sets up the scanner after them.
    private static func start(_ bytes: [UInt8]) -> Start {
        switch HealthXMLProlog.findRoot(bytes) {
        case .needMore: return .needMore
        case .unsupported: return .unsupported("a prolog outside the fast subset")
        case .found(let name, let tagEnd):
            let rootName = Array(bytes[name])
            guard rootName == Array("HealthData".utf8) else { return .unsupported("the root is not HealthData") }
            guard declaresUTF8(bytes) else { return .unsupported("an encoding other than UTF-8") }
            guard expatAccepts(Array(bytes[..<tagEnd]) + Array("</HealthData>".utf8)) else {
                return .unsupported("expat refuses the prolog")
            }
            let line = 1 + HealthXMLProlog.lineBreaks(bytes, 0..<tagEnd)
            guard
                let scanner = HealthXMLBlockScanner(
                    window: bytes, bodyStart: tagEnd, rootName: rootName, line: line,
                    attributeNames: AppleHealthXMLReader.attributeNames)
            else { return .unsupported("names too long for the scanner") }
            return .started(scanner)
        }
    }

    /// Whether expat reads `document` (the prolog, the root start tag and its end tag) without error.
    private static func expatAccepts(_ document: [UInt8]) -> Bool {
        guard let parser = try? ExpatParser(attributeNames: [], maxReportedDepth: 0) else { return false }
        return (try? parser.parse(document, isFinal: true) { _ in true }) == true
    }

    /// Whether the XML declaration, if any, names no encoding or UTF-8 (any case).
    static func declaresUTF8(_ bytes: [UInt8]) -> Bool {
        var index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        guard bytes[index...].starts(with: Array("<?xml".utf8)) else { return true }
        index += 5
        guard index < bytes.count, Self.isSpace(bytes[index]) else { return true }  // another PI
        var close = index
        while close + 1 < bytes.count && !(bytes[close] == UInt8(ascii: "?") && bytes[close + 1] == UInt8(ascii: ">")) {
            close += 1
        }
        let declaration = Array(bytes[index..<close])
        let key = Array("encoding".utf8)
        guard
            let at = (0..<max(0, declaration.count - key.count + 1)).first(where: {
                declaration[$0..<($0 + key.count)].elementsEqual(key)
            })
        else { return true }
        var cursor = at + key.count
        while cursor < declaration.count && isSpace(declaration[cursor]) { cursor += 1 }
        guard cursor < declaration.count, declaration[cursor] == UInt8(ascii: "=") else { return false }
        cursor += 1
        while cursor < declaration.count && isSpace(declaration[cursor]) { cursor += 1 }
        guard cursor < declaration.count else { return false }
        let quote = declaration[cursor]
        guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else { return false }
        let valueStart = cursor + 1
        guard let valueEnd = declaration[valueStart...].firstIndex(of: quote) else { return false }
        let value = String(decoding: declaration[valueStart..<valueEnd], as: UTF8.self)
        return value.lowercased() == "utf-8"
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
