/// Direct children of `HealthData` decoded on the scanning thread, handed in
/// document order to the thread that decides their rows (issue 24: the
/// decisions run on the second core while the first scans).
///
/// One buffer holds the user's id (shared by every row of the batch) and,
/// back to back, each child's six values a row uses and, when rows are
/// kept, its quoted line; children point into it by ranges. A value: the
/// scanning thread fills it, hands it over whole through the queue and
/// starts a new one, so the two threads never share one.
struct HealthXMLRowBatch: Sendable {
    struct Child: Sendable {
        var line: Int
        var isRecord: Bool
        var type: Range<Int>?
        var value: Range<Int>?
        var unit: Range<Int>?
        var start: Range<Int>?
        var end: Range<Int>?
        var sourceName: Range<Int>?
        /// The line's quote for the rejects (nil unless rows are kept).
        var raw: Range<Int>?
    }

    /// Children a batch holds before it is handed over.
    static let capacity = 2048

    private(set) var bytes: [UInt8]
    let user: Range<Int>
    private(set) var children: [Child] = []

    init(user: [UInt8]) {
        bytes = user
        bytes.reserveCapacity(Self.capacity * 160)
        self.user = 0..<user.count
        children.reserveCapacity(Self.capacity)
    }

    var isFull: Bool { children.count >= Self.capacity }
    var isEmpty: Bool { children.isEmpty }

    /// Decodes what a row needs of `view` (an empty value is NULL, as in expat's pass).
    mutating func append(_ view: HealthXMLChildView, keepRaw: Bool) {
        guard view.isRecord else {
            children.append(Child(line: view.line, isRecord: false))
            return
        }
        func add(_ attribute: HealthXMLAttribute) -> Range<Int>? {
            guard let range = view.value(attribute, into: &bytes), !range.isEmpty else { return nil }
            return range
        }
        let type = add(.type)
        let value = add(.value)
        let unit = add(.unit)
        let start = add(.startDate)
        let end = add(.endDate)
        let sourceName = add(.sourceName)
        let raw = keepRaw ? view.appendRaw(to: &bytes) : nil
        children.append(
            Child(
                line: view.line, isRecord: true, type: type, value: value, unit: unit, start: start, end: end,
                sourceName: sourceName, raw: raw))
    }

    /// The quoted line of `child` ("" when not kept).
    func raw(_ child: Child) -> String {
        child.raw.map { String(decoding: bytes[$0], as: UTF8.self) } ?? ""
    }
}
