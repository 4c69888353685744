/// The attributes of a direct child of `HealthData` that the fast reader
/// hands out, by their index in `AppleHealthXMLReader.attributeNames`.
enum HealthXMLAttribute: Int, CaseIterable {
    case type, unit, value, startDate, endDate, sourceName, sourceVersion, device, creationDate
}

/// One direct child of `HealthData` as the fast reader found it: valid only
/// inside the callback it is passed to (it points into the reader's window).
///
/// Values are copied (decoded when they hold a reference or a line break)
/// into the caller's buffer as byte ranges, so a row is decided without a
/// String per element; `raw()` quotes the line only when a reject needs it.
struct HealthXMLChildView {
    let scanner: HealthXMLBlockScanner
    let child: HealthXMLScannedChild

    /// 1-based line of the start tag's `<`.
    var line: Int { child.line }
    /// Byte offset of the start tag's `<` in the (decompressed) file.
    var byteOffset: Int { scanner.base + child.tagStart }
    var isRecord: Bool { scanner.isNamed(child, Self.record) }
    var name: String { scanner.name(child) }

    /// Appends the attribute's value to `buffer`; its range there, nil when the tag lacks it.
    func value(_ attribute: HealthXMLAttribute, into buffer: inout [UInt8]) -> Range<Int>? {
        scanner.value(child, attribute.rawValue, into: &buffer)
    }

    /// The physical line(s) of the start tag, as `HealthXMLElement.raw`.
    /// The scanner reports a child only once its line's end (or the quote
    /// limit) is in the window, so the quote never waits for more bytes.
    func raw() -> String {
        HealthXMLLineWindow.rawLine(
            in: scanner.window, base: scanner.base, tagStart: byteOffset, tagEnd: scanner.base + child.tagEnd,
            isFinal: true) ?? ""
    }

    /// Appends the bytes of `raw()` to `buffer`; their range there.
    func appendRaw(to buffer: inout [UInt8]) -> Range<Int> {
        let at = buffer.count
        if let range = HealthXMLLineWindow.rawLineRange(
            in: scanner.window, base: scanner.base, tagStart: byteOffset, tagEnd: scanner.base + child.tagEnd,
            isFinal: true)
        {
            buffer.append(contentsOf: scanner.window[range])
        }
        return at..<buffer.count
    }

    /// The child as the expat reader reports it (Strings): for the differential tests.
    func element() -> HealthXMLElement {
        var buffer: [UInt8] = []
        func text(_ attribute: HealthXMLAttribute) -> String? {
            buffer.removeAll(keepingCapacity: true)
            return value(attribute, into: &buffer).map { String(decoding: buffer[$0], as: UTF8.self) }
        }
        return HealthXMLElement(
            line: line, byteOffset: byteOffset, name: name, type: text(.type), unit: text(.unit),
            value: text(.value), startDate: text(.startDate), endDate: text(.endDate), sourceName: text(.sourceName),
            sourceVersion: text(.sourceVersion), device: text(.device), creationDate: text(.creationDate), raw: raw())
    }

    private static let record = Array("Record".utf8)
}
