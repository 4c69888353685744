import CKernels

/// One direct child of the root that `HealthXMLBlockScanner` found: where its
/// start tag lies in the scanner's window (valid until the next `scan`).
struct HealthXMLScannedChild {
    /// 1-based line of the start tag's `<` (expat's count).
    var line: Int
    /// The child's place in the scanner's batch of attribute ranges.
    fileprivate var slot: Int
    /// Window indexes of the `<` and just past the `>`.
    var tagStart: Int
    var tagEnd: Int
    var nameStart: Int
    var nameEnd: Int
    fileprivate var needsDecoding: UInt32
}

/// How a `scan` ended.
enum HealthXMLScanStatus: Equatable {
    /// Everything given was scanned (an incomplete tag at the end waits for more).
    case more
    /// The root element closed and only white space followed.
    case done
    /// The bytes hold something outside the scanner's subset of XML (or are
    /// not well-formed): the file must be read by expat.
    case bail(reason: Int, offset: Int)
}

/// The first stage of the fast Apple Health reader: a block scanner
/// (`dayfold_xml_scan`, C with SSE2) over the body of an export, after the
/// root start tag.
///
/// It holds a window of the file: the bytes not scanned yet plus the last
/// `keptBehind` bytes before them (to quote a child's line in the rejects),
/// so memory stays flat whatever the file. Attribute values are handed out as
/// byte ranges copied (and decoded only when they hold a reference or a line
/// break) into the caller's buffer: no String per element.
/// The scanner never reports an error: anything it does not fully
/// understand is `.bail`, and the caller hands the file to expat.
final class HealthXMLBlockScanner {
    /// Bytes kept before the scan position: the line-quote window of
    /// `HealthXMLLineWindow` (twice its 8 KiB quote limit).
    static let keptBehind = 16 << 10
    /// Window bytes dropped at once (the rest is moved to the front).
    private static let compactAbove = 256 << 10
    private static let batchCapacity: Int32 = 1024
    /// `R_UNFINISHED` of xml_scan.c: the input ended inside the document.
    private static let unfinished = 11

    // One thread owns a scanner (the scanning thread): the run-time
    // exclusivity checks of these per-row properties are skipped (issue 19).
    /// The window: `window[0]` is the file's byte `base`.
    @exclusivity(unchecked) private(set) var window: [UInt8]
    @exclusivity(unchecked) private(set) var base = 0
    @exclusivity(unchecked) private var position: Int
    /// The window's size before which scanning again is pointless (see `scan`).
    @exclusivity(unchecked) private var rescanAt = 0
    private let wantedCount: Int
    private let state: UnsafeMutablePointer<dayfold_xml_state>
    private let children: UnsafeMutablePointer<dayfold_xml_child>
    private let ranges: UnsafeMutablePointer<Int64>

    /// - Parameters:
    ///   - window: the file's first bytes (the prolog, the root start tag and
    ///     whatever followed in them).
    ///   - bodyStart: the index just past the root start tag's `>`.
    ///   - rootName: the root element's name (its end tag closes the document).
    ///   - line: the line at `bodyStart`.
    ///   - attributeNames: the attributes whose values `value(_:_:into:)` hands out, by index.
    /// - Returns: nil when a name is longer than the scanner handles.
    init?(window: [UInt8], bodyStart: Int, rootName: [UInt8], line: Int, attributeNames: [String]) {
        let names = attributeNames.map { Array($0.utf8) }
        let state = UnsafeMutablePointer<dayfold_xml_state>.allocate(capacity: 1)
        var pointers: [UnsafePointer<UInt8>?] = []
        var holders: [UnsafeMutableBufferPointer<UInt8>] = []
        defer { for holder in holders { holder.deallocate() } }
        for name in names {
            let holder = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(1, name.count))
            _ = holder.initialize(from: name)
            holders.append(holder)
            pointers.append(UnsafePointer(holder.baseAddress))
        }
        let lengths = names.map { Int64($0.count) }
        let status = rootName.withUnsafeBufferPointer { root in
            pointers.withUnsafeBufferPointer { wanted in
                dayfold_xml_init(
                    state, root.baseAddress, Int64(root.count), Int64(line), wanted.baseAddress, lengths,
                    Int32(names.count), Int64(HealthXMLBlockScanner.keptBehind / 2))
            }
        }
        guard status == 0 else {
            state.deallocate()
            return nil
        }
        self.state = state
        self.window = window
        self.position = bodyStart
        self.wantedCount = names.count
        children = .allocate(capacity: Int(Self.batchCapacity))
        ranges = .allocate(capacity: Int(Self.batchCapacity) * max(1, names.count) * 2)
    }

    deinit {
        state.deallocate()
        children.deallocate()
        ranges.deallocate()
    }

    /// Appends `chunk` to the window and scans; calls `onChild` for every
    /// direct child of the root, in document order. `isFinal`: no bytes follow.
    func scan(
        appending chunk: [UInt8], isFinal: Bool, onChild: (HealthXMLScannedChild) throws -> Void
    ) rethrows -> HealthXMLScanStatus {
        compact()
        window.append(contentsOf: chunk)
        // A tag longer than the chunks is scanned again only once the bytes
        // after its start doubled, so small chunks stay linear.
        if !isFinal && window.count < rescanAt { return .more }
        while true {
            var count: Int32 = 0
            var resume: Int64 = 0
            let status = window.withUnsafeBufferPointer { bytes -> Int32 in
                guard let start = bytes.baseAddress else { return Int32(DAYFOLD_XML_MORE) }
                return dayfold_xml_scan(
                    state, start, Int64(position), Int64(bytes.count), isFinal ? 1 : 0, children, ranges,
                    Self.batchCapacity, &count, &resume)
            }
            position = Int(resume)
            for slot in 0..<Int(count) {
                let child = children[slot]
                try onChild(
                    HealthXMLScannedChild(
                        line: Int(child.line), slot: slot, tagStart: Int(child.tag_start), tagEnd: Int(child.tag_end),
                        nameStart: Int(child.name_start), nameEnd: Int(child.name_end),
                        needsDecoding: child.needs_decoding))
            }
            switch Int(status) {
            case Int(DAYFOLD_XML_FULL): continue
            case Int(DAYFOLD_XML_DONE): return .done
            case Int(DAYFOLD_XML_MORE):
                if isFinal && window.isEmpty { return .bail(reason: Self.unfinished, offset: base) }
                let waiting = window.count - position
                rescanAt = waiting > 4096 ? position + 2 * waiting : 0
                return .more
            default:
                return .bail(reason: Int(state.pointee.bail_reason), offset: base + Int(state.pointee.bail_offset))
            }
        }
    }

    /// Whether the child's element name is `name`.
    func isNamed(_ child: HealthXMLScannedChild, _ name: [UInt8]) -> Bool {
        guard child.nameEnd - child.nameStart == name.count else { return false }
        var index = 0
        while index < name.count {
            if window[child.nameStart + index] != name[index] { return false }
            index += 1
        }
        return true
    }

    /// The child's element name.
    func name(_ child: HealthXMLScannedChild) -> String {
        String(decoding: window[child.nameStart..<child.nameEnd], as: UTF8.self)
    }

    /// Appends the value of wanted attribute `attribute` of `child` to
    /// `buffer`, decoded as expat would (references, white space as spaces);
    /// returns its range there, nil when the tag lacks the attribute.
    func value(_ child: HealthXMLScannedChild, _ attribute: Int, into buffer: inout [UInt8]) -> Range<Int>? {
        let slot = (child.slot * wantedCount + attribute) * 2
        let start = Int(ranges[slot])
        guard start >= 0 else { return nil }
        let end = Int(ranges[slot + 1])
        let at = buffer.count
        if child.needsDecoding & (1 << UInt32(attribute)) == 0 {
            buffer.append(contentsOf: window[start..<end])
            return at..<buffer.count
        }
        let length = end - start
        buffer.append(contentsOf: repeatElement(0, count: length))
        let written = window.withUnsafeBufferPointer { source in
            buffer.withUnsafeMutableBufferPointer { target -> Int in
                guard let from = source.baseAddress, let into = target.baseAddress else { return 0 }
                return Int(dayfold_xml_decode(from + start, Int64(length), into + at))
            }
        }
        buffer.removeLast(length - written)
        return at..<buffer.count
    }

    /// Drops the window's bytes before the kept ones, once there are enough to be worth the move.
    private func compact() {
        let drop = position - Self.keptBehind
        guard drop > Self.compactAbove else { return }
        window.removeFirst(drop)
        base += drop
        position -= drop
        rescanAt = max(0, rescanAt - drop)
    }
}

/// The prolog's helpers of the fast reader, around the C kernels.
enum HealthXMLProlog {
    enum Root: Equatable {
        case needMore
        /// Anything the fast reader does not handle before the root.
        case unsupported
        case found(name: Range<Int>, tagEnd: Int)
    }

    /// Finds the root start tag after the BOM, XML declaration, comments and
    /// processing instructions (the DTD already blanked).
    static func findRoot(_ bytes: [UInt8]) -> Root {
        var nameStart: Int64 = 0
        var nameEnd: Int64 = 0
        var tagEnd: Int64 = 0
        let status = bytes.withUnsafeBufferPointer { buffer -> Int32 in
            guard let start = buffer.baseAddress else { return 0 }
            return dayfold_xml_find_root(start, Int64(buffer.count), &nameStart, &nameEnd, &tagEnd)
        }
        switch status {
        case 1: return .found(name: Int(nameStart)..<Int(nameEnd), tagEnd: Int(tagEnd))
        case 0: return .needMore
        default: return .unsupported
        }
    }

    /// Line breaks in `bytes[range]` as expat counts them (LF, CR LF, lone CR).
    static func lineBreaks(_ bytes: [UInt8], _ range: Range<Int>) -> Int {
        bytes.withUnsafeBufferPointer { buffer in
            guard let start = buffer.baseAddress else { return 0 }
            return Int(dayfold_xml_count_lines(start, Int64(range.lowerBound), Int64(range.upperBound)))
        }
    }
}
