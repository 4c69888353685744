/// How reading an `*.xml` file of a `health/<user_id>/` folder ended.
public enum HealthXMLReadResult: Sendable, Equatable {
    /// The root was `HealthData` and the whole file was read.
    case read
    /// The root element is not `HealthData` (e.g. `export_cda.xml`, whose root
    /// is `ClinicalDocument`): the file is skipped and nothing was reported.
    case skipped(root: String)
}

/// Streams an Apple Health `export.xml` with expat and reports the direct
/// children of `<HealthData>`.
///
/// Memory does not grow with the file: the stream is fed to expat a chunk at a
/// time, and only a small window of recent bytes is kept to quote the line of
/// each start tag. The inline DTD is blanked out first (see
/// `HealthXMLDoctypeFilter`), including the malformed one some iOS versions wrote.
///
/// ```swift
/// let stream = try openByteStream(path: "health/u1/export.xml.zst")
/// let result = try AppleHealthXMLReader.read(stream) { element in
///     if element.name == "Record" { samples.append(element) } else { ignored += 1 }
/// }
/// ```
public enum AppleHealthXMLReader {
    /// The attributes copied out of each reported element, in `HealthXMLElement` order.
    static let attributeNames = [
        "type", "unit", "value", "startDate", "endDate", "sourceName", "sourceVersion", "device",
        "creationDate",
    ]

    /// Streams the file; calls `onElement` for every direct child element of
    /// the root `<HealthData>`, in document order (nested elements are not reported).
    ///
    /// - Returns: `.skipped(root:)`, without calling `onElement`, when the root
    ///   element is not `HealthData`; `.read` otherwise.
    /// - Throws: `HealthXMLError` when the file is not well-formed outside its
    ///   DTD; the stream's `ByteStreamError` (e.g. a truncated zstd stream);
    ///   whatever `onElement` throws (reading stops there).
    public static func read(
        _ stream: ByteStream, onElement: (HealthXMLElement) throws -> Void
    ) throws -> HealthXMLReadResult {
        let session = try HealthXMLReadSession()
        var doctypeFilter = HealthXMLDoctypeFilter()
        while let chunk = try stream.nextChunk() {
            let ready = doctypeFilter.filter(chunk)
            if ready.isEmpty { continue }
            if let result = try session.feed(ready, isFinal: false, onElement: onElement) {
                return result
            }
        }
        return try session.feed(doctypeFilter.finish(), isFinal: true, onElement: onElement) ?? .read
    }
}

/// The state of one `read` call: the parser, the line window, and the elements
/// whose line has not ended yet.
final class HealthXMLReadSession {
    private let parser: ExpatParser
    private var window = HealthXMLLineWindow()
    /// Elements waiting for the end of their line, in document order.
    private var pending: [(element: HealthXMLElement, tagStart: Int, tagEnd: Int)] = []

    init() throws {
        do {
            parser = try ExpatParser(attributeNames: AppleHealthXMLReader.attributeNames, maxReportedDepth: 2)
        } catch let error as ExpatError {
            throw HealthXMLError(line: 0, detail: error.message)
        }
    }

    /// Parses the next bytes; returns a result once the file is known to be
    /// skipped, `nil` to go on (or, after the final bytes, when all was read).
    func feed(
        _ bytes: [UInt8], isFinal: Bool, onElement: (HealthXMLElement) throws -> Void
    ) throws -> HealthXMLReadResult? {
        window.append(bytes)
        try flushPending(isFinal: false, onElement: onElement)
        var skippedRoot: String?
        var callbackError: (any Error)?
        let completed: Bool
        do {
            completed = try parser.parse(bytes, isFinal: isFinal) { tag in
                if tag.depth == 1 {
                    guard tag.name == "HealthData" else {
                        skippedRoot = tag.name
                        return false
                    }
                    return true
                }
                let element = Self.element(from: tag)
                let tagEnd = tag.byteOffset + tag.byteCount
                if pending.isEmpty,
                    let raw = window.rawLine(tagStart: tag.byteOffset, tagEnd: tagEnd, isFinal: isFinal)
                {
                    var complete = element
                    complete.raw = raw
                    do {
                        try onElement(complete)
                    } catch {
                        callbackError = error
                        return false
                    }
                } else {
                    pending.append((element, tag.byteOffset, tagEnd))
                }
                return true
            }
        } catch let error as ExpatError {
            throw HealthXMLError(line: error.line, detail: error.message, column: error.column)
        }
        if let callbackError { throw callbackError }
        if let skippedRoot { return .skipped(root: skippedRoot) }
        precondition(completed, "the parser stops only for a skipped root or a callback error")
        if isFinal { try flushPending(isFinal: true, onElement: onElement) }
        return nil
    }

    /// Reports the pending elements whose line end is now in the window.
    private func flushPending(isFinal: Bool, onElement: (HealthXMLElement) throws -> Void) throws {
        var reported = 0
        defer { pending.removeFirst(reported) }
        for entry in pending {
            guard let raw = window.rawLine(tagStart: entry.tagStart, tagEnd: entry.tagEnd, isFinal: isFinal)
            else { return }
            var complete = entry.element
            complete.raw = raw
            reported += 1
            try onElement(complete)
        }
    }

    private static func element(from tag: ExpatStartTag) -> HealthXMLElement {
        let values = tag.attributes
        return HealthXMLElement(
            line: tag.line, byteOffset: tag.byteOffset, name: tag.name, type: values[0], unit: values[1],
            value: values[2], startDate: values[3], endDate: values[4], sourceName: values[5],
            sourceVersion: values[6], device: values[7], creationDate: values[8])
    }
}
