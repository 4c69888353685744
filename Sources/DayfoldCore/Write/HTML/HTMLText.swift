import Foundation

/// Text as the report writes it: every value escaped for HTML, numbers in
/// one fixed form (the same value gives the same bytes on every machine).
enum HTMLText {
    /// `text` safe inside an element or a quoted attribute.
    static func escape(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 || $0 == 0x27 })
        else { return text }
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count + 16)
        for character in text.unicodeScalars {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return escaped
    }

    /// A number with at most one decimal (none from 100 on), never "-0".
    static func number(_ value: Double) -> String {
        abs(value) >= 100 ? fixed(value, tenths: false) : fixed(value, tenths: true)
    }

    /// An adherence fraction as a percentage; nil (nothing scored) is
    /// "no plan", never "0 %".
    static func adherence(_ value: Double?) -> String {
        guard let value else { return "no plan" }
        return percent(value * 100)
    }

    /// A value already in percent, as a whole number.
    static func percent(_ value: Double) -> String {
        fixed(value, tenths: false) + " %"
    }

    /// `value` rounded half to even to a whole number or to tenths, trailing
    /// ".0" left out: written from integers, not through `String(format:)`
    /// (slow on Linux, and the report writes tens of thousands of numbers).
    static func fixed(_ value: Double, tenths: Bool) -> String {
        guard value.isFinite else { return "–" }
        let scaled = (tenths ? value * 10 : value).rounded(.toNearestOrEven)
        guard abs(scaled) < 1e15 else { return String(format: tenths ? "%.1f" : "%.0f", value) }
        let units = Int64(scaled)
        guard units != 0 else { return "0" }
        guard tenths else { return String(units) }
        let magnitude = units.magnitude
        let whole = String(magnitude / 10)
        let tenth = magnitude % 10
        return (units < 0 ? "-" : "") + whole + (tenth == 0 ? "" : "." + String(tenth))
    }

    static func count(_ value: Int64) -> String { String(value) }
    static func count(_ value: Int) -> String { String(value) }

    /// An id as a token for file names and fragments: kept when it is only
    /// letters, digits, `_` and `-`; otherwise `~` and the hex of its UTF-8
    /// (so two ids never share a token). A token that would pass 120
    /// bytes (a file name may have 255) is `~~` and the SHA-256 of the id.
    static func token(_ id: String) -> String {
        let bytes = id.utf8.count
        if isPlain(id) { return bytes <= 120 ? id : "~~" + SHA256Hasher.hex(id) }
        guard bytes <= 59 else { return "~~" + SHA256Hasher.hex(id) }
        let digits = Array("0123456789abcdef".utf8)
        var hex: [UInt8] = [0x7E]
        for byte in id.utf8 {
            hex.append(digits[Int(byte >> 4)])
            hex.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: hex, as: UTF8.self)
    }

    /// Only letters, digits, `_` and `-`.
    private static func isPlain(_ id: String) -> Bool {
        !id.isEmpty
            && id.utf8.allSatisfy {
                ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x5F
                    || $0 == 0x2D
            }
    }
}
