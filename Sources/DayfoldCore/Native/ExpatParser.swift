import CExpat

/// Why expat stopped: its error code, its own message (`XML_ErrorString`) and
/// where in the input it stopped.
struct ExpatError: Error, Sendable, CustomStringConvertible {
    var code: Int
    var message: String
    /// 1-based line where expat stopped.
    var line: Int
    /// 0-based column where expat stopped (expat's count).
    var column: Int
    /// Byte offset from the start of everything fed to this parser.
    var byteOffset: Int

    var description: String { "\(line):\(column): \(message)" }
}

/// One start tag as expat reported it, copied out of expat's buffers.
struct ExpatStartTag {
    /// The element name.
    var name: String
    /// 1 for the root element, 2 for its direct children, and so on.
    var depth: Int
    /// 1-based line of the `<` that opens the tag.
    var line: Int
    /// Byte offset of the `<` from the start of everything fed to this parser.
    var byteOffset: Int
    /// Length of the start tag in bytes (`<` through `>`).
    var byteCount: Int
    /// The values of the attributes the parser was asked for, in that order
    /// (`nil` when the tag does not have it).
    var attributes: [String?]
}

/// Owns one expat `XML_Parser` and feeds it chunk by chunk.
///
/// Only start tags up to `maxReportedDepth` are turned into Swift values;
/// deeper elements only move the depth counter, so nested content costs no
/// allocation. Only the attributes named at creation are copied into Strings;
/// their names are compared byte by byte as C strings, without building a
/// dictionary.
/// Character data, comments and processing instructions have no handler, so
/// expat skips them. This is the only file that calls expat.
final class ExpatParser {
    private let parser: XML_Parser
    /// NUL-terminated attribute names, compared with `strcmp`.
    private let wantedNames: [[CChar]]
    /// The first byte of each wanted name, checked before `strcmp`.
    private let wantedFirstBytes: [CChar]
    private let maxReportedDepth: Int
    private var depth = 0
    /// The callback of the `parse` call in progress; `false` from it stops the parser.
    private var onStartTag: ((ExpatStartTag) -> Bool)?
    private var stoppedByCallback = false
    private var values: [String?]

    /// - Parameters:
    ///   - attributeNames: the attributes to copy out of reported start tags.
    ///   - maxReportedDepth: start tags deeper than this are not reported.
    init(attributeNames: [String], maxReportedDepth: Int) throws {
        guard let parser = XML_ParserCreate(nil) else {
            throw ExpatError(
                code: -1, message: "cannot create an XML parser (out of memory)", line: 0, column: 0,
                byteOffset: 0)
        }
        self.parser = parser
        self.wantedNames = attributeNames.map { Array($0.utf8CString) }
        self.wantedFirstBytes = wantedNames.map { $0.first ?? 0 }
        self.maxReportedDepth = maxReportedDepth
        self.values = [String?](repeating: nil, count: attributeNames.count)
        XML_SetUserData(parser, Unmanaged.passUnretained(self).toOpaque())
        XML_SetElementHandler(parser, expatStartElement, expatEndElement)
    }

    deinit { XML_ParserFree(parser) }

    /// Feeds `bytes` to expat; `isFinal` marks the end of the document.
    ///
    /// `onStartTag` is called for each start tag up to `maxReportedDepth`, in
    /// document order; returning `false` stops the parser for good.
    /// - Returns: `false` when `onStartTag` stopped the parser.
    /// - Throws: `ExpatError` when the input is not well-formed XML.
    func parse(_ bytes: [UInt8], isFinal: Bool, onStartTag: (ExpatStartTag) -> Bool) throws -> Bool {
        if stoppedByCallback { return false }
        return try withoutActuallyEscaping(onStartTag) { callback in
            self.onStartTag = callback
            defer { self.onStartTag = nil }
            return try bytes.withUnsafeBufferPointer { buffer in
                // XML_Parse takes an `int` length: feed at most 1 GiB per call.
                let sliceLimit = 1 << 30
                var offset = 0
                repeat {
                    let count = min(sliceLimit, buffer.count - offset)
                    let last = isFinal && offset + count == buffer.count
                    let status =
                        buffer.baseAddress.map { base in
                            base.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                                XML_Parse(parser, $0 + offset, Int32(count), last ? 1 : 0)
                            }
                        } ?? XML_Parse(parser, nil, 0, last ? 1 : 0)
                    if stoppedByCallback { return false }
                    try check(status)
                    offset += count
                } while offset < buffer.count
                return true
            }
        }
    }

    /// Turns a failed `XML_Parse` status into an `ExpatError` with expat's message and position.
    private func check(_ status: XML_Status) throws {
        guard status == XML_STATUS_ERROR else { return }
        let code = XML_GetErrorCode(parser)
        let message = XML_ErrorString(code).map { String(cString: $0) } ?? "XML error \(code.rawValue)"
        throw ExpatError(
            code: Int(code.rawValue), message: message,
            line: Int(clamping: XML_GetCurrentLineNumber(parser)),
            column: Int(clamping: XML_GetCurrentColumnNumber(parser)),
            byteOffset: Int(XML_GetCurrentByteIndex(parser)))
    }

    fileprivate func startElement(
        _ name: UnsafePointer<XML_Char>, _ attributes: UnsafeMutablePointer<UnsafePointer<XML_Char>?>?
    ) {
        depth += 1
        guard depth <= maxReportedDepth, let onStartTag, !stoppedByCallback else { return }
        // One array reused for every tag: the callback copies the values it keeps.
        for index in values.indices { values[index] = nil }
        if let attributes {
            var index = 0
            while let attributeName = attributes[index] {
                let first = attributeName.pointee
                for wantedIndex in wantedNames.indices where wantedFirstBytes[wantedIndex] == first {
                    if Self.equal(wantedNames[wantedIndex], attributeName) {
                        values[wantedIndex] = attributes[index + 1].map { String(cString: $0) }
                        break
                    }
                }
                index += 2
            }
        }
        let tag = ExpatStartTag(
            name: String(cString: name), depth: depth,
            line: Int(clamping: XML_GetCurrentLineNumber(parser)),
            byteOffset: Int(XML_GetCurrentByteIndex(parser)),
            byteCount: Int(XML_GetCurrentByteCount(parser)), attributes: values)
        if !onStartTag(tag) {
            stoppedByCallback = true
            XML_StopParser(parser, XML_Bool(0))
        }
    }

    fileprivate func endElement() { depth -= 1 }

    /// `strcmp(wanted, name) == 0`, for a NUL-terminated `wanted`.
    private static func equal(_ wanted: [CChar], _ name: UnsafePointer<XML_Char>) -> Bool {
        var index = 0
        while index < wanted.count {
            let byte = wanted[index]
            if byte != name[index] { return false }
            if byte == 0 { return true }
            index += 1
        }
        return false
    }
}

private func expatStartElement(
    _ userData: UnsafeMutableRawPointer?, _ name: UnsafePointer<XML_Char>?,
    _ attributes: UnsafeMutablePointer<UnsafePointer<XML_Char>?>?
) {
    guard let userData, let name else { return }
    Unmanaged<ExpatParser>.fromOpaque(userData).takeUnretainedValue().startElement(name, attributes)
}

private func expatEndElement(_ userData: UnsafeMutableRawPointer?, _ name: UnsafePointer<XML_Char>?) {
    guard let userData else { return }
    Unmanaged<ExpatParser>.fromOpaque(userData).takeUnretainedValue().endElement()
}
