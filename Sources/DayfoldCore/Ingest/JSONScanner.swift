/// A validating JSON scanner (RFC 8259) that records two facts about the
/// top-level object; nothing is allocated per value.
struct JSONScanner {
    let bytes: ArraySlice<UInt8>
    var position: Int
    var depth = 0

    struct Facts {
        var valueCaptureIsObject = false
        var informationalIsTrue = false
    }

    init(bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        position = bytes.startIndex
    }

    private static let valueCaptureKey = Array("value_capture".utf8)
    private static let informationalKey = Array("informational".utf8)

    mutating func scanDocument() -> Facts? {
        var facts = Facts()
        skipSpace()
        guard position < bytes.endIndex else { return nil }
        if bytes[position] == UInt8(ascii: "{") {
            guard scanObject(topLevel: &facts) else { return nil }
        } else {
            guard scanValue() != nil else { return nil }
        }
        skipSpace()
        return position == bytes.endIndex ? facts : nil
    }

    private mutating func skipSpace() {
        while position < bytes.endIndex {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    /// Kinds of values the top-level facts care about.
    enum Kind { case object, trueLiteral, other }

    private mutating func scanValue() -> Kind? {
        skipSpace()
        guard position < bytes.endIndex else { return nil }
        switch bytes[position] {
        case UInt8(ascii: "{"):
            var ignored = Facts()
            return scanObject(topLevel: &ignored, nested: true) ? .object : nil
        case UInt8(ascii: "["): return scanArray() ? .other : nil
        case UInt8(ascii: "\""): return scanString() != nil ? .other : nil
        case UInt8(ascii: "t"): return scanLiteral("true") ? .trueLiteral : nil
        case UInt8(ascii: "f"): return scanLiteral("false") ? .other : nil
        case UInt8(ascii: "n"): return scanLiteral("null") ? .other : nil
        default: return scanNumber() ? .other : nil
        }
    }

    private mutating func scanObject(topLevel facts: inout Facts, nested: Bool = false) -> Bool {
        depth += 1
        defer { depth -= 1 }
        guard depth < 512 else { return false }
        position += 1
        skipSpace()
        if position < bytes.endIndex && bytes[position] == UInt8(ascii: "}") {
            position += 1
            return true
        }
        while true {
            skipSpace()
            guard position < bytes.endIndex, bytes[position] == UInt8(ascii: "\""), let key = scanString() else {
                return false
            }
            skipSpace()
            guard position < bytes.endIndex, bytes[position] == UInt8(ascii: ":") else { return false }
            position += 1
            guard let kind = scanValue() else { return false }
            if !nested {
                if bytes[key].elementsEqual(JSONScanner.valueCaptureKey) {
                    facts.valueCaptureIsObject = kind == .object
                }
                if bytes[key].elementsEqual(JSONScanner.informationalKey) {
                    facts.informationalIsTrue = kind == .trueLiteral
                }
            }
            skipSpace()
            guard position < bytes.endIndex else { return false }
            if bytes[position] == UInt8(ascii: ",") {
                position += 1
                continue
            }
            if bytes[position] == UInt8(ascii: "}") {
                position += 1
                return true
            }
            return false
        }
    }

    private mutating func scanArray() -> Bool {
        depth += 1
        defer { depth -= 1 }
        guard depth < 512 else { return false }
        position += 1
        skipSpace()
        if position < bytes.endIndex && bytes[position] == UInt8(ascii: "]") {
            position += 1
            return true
        }
        while true {
            guard scanValue() != nil else { return false }
            skipSpace()
            guard position < bytes.endIndex else { return false }
            if bytes[position] == UInt8(ascii: ",") {
                position += 1
                continue
            }
            if bytes[position] == UInt8(ascii: "]") {
                position += 1
                return true
            }
            return false
        }
    }

    /// Returns the range of the string's content (escapes left as written).
    private mutating func scanString() -> Range<Int>? {
        position += 1
        let start = position
        while position < bytes.endIndex {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                position += 1
                return start..<(position - 1)
            }
            if byte < 0x20 { return nil }
            if byte == UInt8(ascii: "\\") {
                position += 1
                guard position < bytes.endIndex else { return nil }
                switch bytes[position] {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                    UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    break
                case UInt8(ascii: "u"):
                    for _ in 0..<4 {
                        position += 1
                        guard position < bytes.endIndex, isHexDigit(bytes[position]) else { return nil }
                    }
                default: return nil
                }
            }
            position += 1
        }
        return nil
    }

    private func isHexDigit(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66)
    }

    private mutating func scanLiteral(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard position + count <= bytes.endIndex else { return false }
        let matches = literal.withUTF8Buffer { expected in
            (0..<count).allSatisfy { bytes[position + $0] == expected[$0] }
        }
        guard matches else { return false }
        position += count
        return true
    }

    private mutating func scanNumber() -> Bool {
        let start = position
        if position < bytes.endIndex && bytes[position] == UInt8(ascii: "-") { position += 1 }
        guard position < bytes.endIndex else { return false }
        if bytes[position] == UInt8(ascii: "0") {
            position += 1
        } else {
            guard scanDigits() else { return false }
        }
        if position < bytes.endIndex && bytes[position] == UInt8(ascii: ".") {
            position += 1
            guard scanDigits() else { return false }
        }
        if position < bytes.endIndex && (bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E")) {
            position += 1
            if position < bytes.endIndex
                && (bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-"))
            {
                position += 1
            }
            guard scanDigits() else { return false }
        }
        return position > start
    }

    private mutating func scanDigits() -> Bool {
        let start = position
        while position < bytes.endIndex && bytes[position] >= 0x30 && bytes[position] <= 0x39 { position += 1 }
        return position > start
    }
}
