/// CSV rows being built as bytes: ids, numbers, dates and instants are
/// formatted straight into the buffer, so generating a gigabyte never builds a
/// `String` per field.
struct CSVRowBuffer: Sendable {
    private(set) var bytes: [UInt8]
    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    init(capacity: Int) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    var count: Int { bytes.count }

    mutating func removeAll() { bytes.removeAll(keepingCapacity: true) }

    /// Appends pre-encoded bytes (a header, a token, an already-quoted field).
    mutating func append(_ token: [UInt8]) { bytes.append(contentsOf: token) }

    mutating func append(_ text: String) { bytes.append(contentsOf: text.utf8) }

    mutating func comma() { bytes.append(UInt8(ascii: ",")) }

    mutating func newline() { bytes.append(UInt8(ascii: "\n")) }

    mutating func uuid(_ id: SyntheticID) {
        hex(id.high >> 32, digits: 8)
        bytes.append(UInt8(ascii: "-"))
        hex(id.high >> 16, digits: 4)
        bytes.append(UInt8(ascii: "-"))
        hex(id.high, digits: 4)
        bytes.append(UInt8(ascii: "-"))
        hex(id.low >> 48, digits: 4)
        bytes.append(UInt8(ascii: "-"))
        hex(id.low, digits: 12)
    }

    /// The low `digits` hex digits of `value`, most significant first.
    mutating func hex(_ value: UInt64, digits: Int) {
        var shift = (digits - 1) * 4
        while shift >= 0 {
            bytes.append(Self.hexDigits[Int((value >> UInt64(shift)) & 0xF)])
            shift -= 4
        }
    }

    mutating func integer(_ value: Int) {
        if value < 0 {
            bytes.append(UInt8(ascii: "-"))
            unsigned(UInt64(-value))
        } else {
            unsigned(UInt64(value))
        }
    }

    private mutating func unsigned(_ value: UInt64) {
        if value >= 10 { unsigned(value / 10) }
        bytes.append(UInt8(ascii: "0") + UInt8(value % 10))
    }

    /// `value / 10^decimals` in the shortest decimal form: `fixed(8135, 2)` is
    /// `81.35`, `fixed(8130, 2)` is `81.3`, `fixed(8100, 2)` is `81`.
    mutating func fixed(_ value: Int, decimals: Int) {
        var scale = 1
        for _ in 0..<decimals { scale *= 10 }
        let magnitude = value < 0 ? -value : value
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        unsigned(UInt64(magnitude / scale))
        var fraction = magnitude % scale
        guard fraction != 0 else { return }
        bytes.append(UInt8(ascii: "."))
        var width = decimals
        while fraction % 10 == 0 {
            fraction /= 10
            width -= 1
        }
        var divisor = 1
        for _ in 1..<width { divisor *= 10 }
        while divisor > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(fraction / divisor % 10))
            divisor /= 10
        }
    }

    private mutating func twoDigits(_ value: Int) {
        bytes.append(UInt8(ascii: "0") + UInt8(value / 10))
        bytes.append(UInt8(ascii: "0") + UInt8(value % 10))
    }

    /// `YYYY-MM-DD` of a day number (days since 1970-01-01).
    mutating func date(_ day: Int) {
        let civil = CivilCalendar.date(fromDay: day)
        twoDigits(civil.year / 100)
        twoDigits(civil.year % 100)
        bytes.append(UInt8(ascii: "-"))
        twoDigits(civil.month)
        bytes.append(UInt8(ascii: "-"))
        twoDigits(civil.day)
    }

    private mutating func dateTime(_ seconds: Int64, separator: UInt8) {
        let day = Int(seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400)
        let secondOfDay = Int(seconds - Int64(day) * 86_400)
        date(day)
        bytes.append(separator)
        twoDigits(secondOfDay / 3600)
        bytes.append(UInt8(ascii: ":"))
        twoDigits(secondOfDay / 60 % 60)
        bytes.append(UInt8(ascii: ":"))
        twoDigits(secondOfDay % 60)
    }

    private mutating func offset(_ seconds: Int, colon: Bool) {
        bytes.append(seconds < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"))
        let magnitude = seconds < 0 ? -seconds : seconds
        twoDigits(magnitude / 3600)
        if colon { bytes.append(UInt8(ascii: ":")) }
        twoDigits(magnitude / 60 % 60)
    }

    mutating func instant(_ instant: SyntheticInstant, _ style: InstantStyle) {
        switch style {
        case .isoOffset:
            dateTime(instant.localSeconds, separator: UInt8(ascii: "T"))
            offset(instant.offsetSeconds, colon: true)
        case .isoOffsetMillis:
            dateTime(instant.localSeconds, separator: UInt8(ascii: "T"))
            bytes.append(contentsOf: [UInt8(ascii: "."), UInt8(ascii: "2"), UInt8(ascii: "5"), UInt8(ascii: "0")])
            offset(instant.offsetSeconds, colon: true)
        case .isoUTC:
            dateTime(instant.utcSeconds, separator: UInt8(ascii: "T"))
            bytes.append(UInt8(ascii: "Z"))
        case .postgresUTC:
            dateTime(instant.utcSeconds, separator: UInt8(ascii: " "))
            bytes.append(contentsOf: [UInt8(ascii: "+"), UInt8(ascii: "0"), UInt8(ascii: "0")])
        case .appleHealth:
            dateTime(instant.localSeconds, separator: UInt8(ascii: " "))
            bytes.append(UInt8(ascii: " "))
            offset(instant.offsetSeconds, colon: false)
        case .missingOffset:
            dateTime(instant.localSeconds, separator: UInt8(ascii: "T"))
        }
    }
}

extension CSVRowBuffer {
    /// Appends a copy of the bytes from `start` to the end.
    mutating func repeatTail(from start: Int) {
        bytes.append(contentsOf: bytes[start...])
    }
}

/// Field-then-comma helpers: a row is a run of `put…` calls and one last
/// field written without its comma.
extension CSVRowBuffer {
    mutating func put(_ token: [UInt8]) {
        append(token)
        comma()
    }

    mutating func put(_ id: SyntheticID) {
        uuid(id)
        comma()
    }

    mutating func put(_ instant: SyntheticInstant?, _ style: InstantStyle) {
        if let instant { self.instant(instant, style) }
        comma()
    }

    mutating func putDate(_ day: Int) {
        date(day)
        comma()
    }

    mutating func putInteger(_ value: Int) {
        integer(value)
        comma()
    }

    mutating func putEmpty() { comma() }
}
