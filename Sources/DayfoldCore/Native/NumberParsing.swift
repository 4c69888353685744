import Foundation

/// Parses a finite decimal number from a field's bytes, without creating a
/// String; nil when not a number. Plain decimals with few digits (what
/// drops hold: "1070", "1.5", "-0.25") take an exact fast path; anything
/// else goes to `strtod` (the C locale), whose result the fast path matches
/// bit for bit.
func parseDouble<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes, _ start: Int, _ end: Int) -> Double?
where Bytes.Index == Int {
    let length = end - start
    guard length > 0, length < 64 else { return length >= 64 ? parseLongDouble(bytes, start, end) : nil }
    if let value = parseShortDecimal(bytes, start, end) { return value }
    // Only plain decimal syntax: strtod would also take "inf", "nan" and hex.
    for index in start..<end {
        let byte = bytes[index]
        let ok =
            (byte >= 0x30 && byte <= 0x39) || byte == 0x2E || byte == 0x2D || byte == 0x2B || byte == 0x65
            || byte == 0x45
        if !ok { return nil }
    }
    return withUnsafeTemporaryAllocation(of: CChar.self, capacity: length + 1) { buffer -> Double? in
        for offset in 0..<length { buffer[offset] = CChar(bitPattern: bytes[start + offset]) }
        buffer[length] = 0
        guard let base = buffer.baseAddress else { return nil }
        var endPointer: UnsafeMutablePointer<CChar>?
        let value = strtod(base, &endPointer)
        guard let endPointer, endPointer == base + length, value.isFinite else { return nil }
        return value
    }
}

/// Exact powers of ten (10^22 is the largest a Double holds exactly).
private let exactPowersOfTen: [Double] = (0...22).map { exponent in
    (0..<exponent).reduce(1.0) { power, _ in power * 10 }
}

/// `[+-]digits[.digits]` with at most 15 digits in all (and at least one):
/// the digits as an integer are below 2^53 and the fraction's scale at most
/// 10^15, both exact Doubles, so one correctly rounded division gives the
/// correctly rounded value, as strtod does (Clinger's fast path). nil for
/// anything else (the caller then asks strtod).
@inline(__always)
private func parseShortDecimal<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes, _ start: Int, _ end: Int)
    -> Double?
where Bytes.Index == Int {
    var index = start
    let negative = bytes[index] == 0x2D
    if negative || bytes[index] == 0x2B { index += 1 }
    var digits = 0
    var mantissa: UInt64 = 0
    var fractionDigits = 0
    var seenPoint = false
    while index < end {
        let byte = bytes[index]
        if byte >= 0x30 && byte <= 0x39 {
            mantissa = mantissa &* 10 &+ UInt64(byte &- 0x30)
            digits += 1
            if seenPoint { fractionDigits += 1 }
        } else if byte == 0x2E && !seenPoint {
            seenPoint = true
        } else {
            return nil
        }
        index += 1
    }
    guard digits > 0, digits <= 15 else { return nil }
    let magnitude = Double(mantissa) / exactPowersOfTen[fractionDigits]
    return negative ? -magnitude : magnitude
}

private func parseLongDouble<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes, _ start: Int, _ end: Int) -> Double?
where Bytes.Index == Int {
    guard let text = String(validating: Array(bytes[start..<end]), as: UTF8.self) else { return nil }
    guard let value = Double(text), value.isFinite else { return nil }
    return value
}

/// Parses a base-10 integer (optional sign); nil when not an integer.
func parseInteger(_ bytes: [UInt8], _ start: Int, _ end: Int) -> Int64? {
    var index = start
    var negative = false
    if index < end && (bytes[index] == 0x2D || bytes[index] == 0x2B) {
        negative = bytes[index] == 0x2D
        index += 1
    }
    guard index < end, end - index <= 18 else { return nil }
    var value: Int64 = 0
    while index < end {
        let digit = Int64(bytes[index]) - 48
        guard digit >= 0 && digit <= 9 else { return nil }
        value = value * 10 + digit
        index += 1
    }
    return negative ? -value : value
}

/// Parses a whole slice as a finite decimal number (through its buffer:
/// every read is within `start..<end`).
func parseDouble(_ slice: ArraySlice<UInt8>) -> Double? {
    slice.withUnsafeBufferPointer { parseDouble($0, 0, $0.count) }
}

/// Parses `bytes[field]` as a finite decimal number.
func parseDouble(_ bytes: [UInt8], field: Range<Int>) -> Double? {
    bytes.withUnsafeBufferPointer { parseDouble(UnsafeBufferPointer(rebasing: $0[field]), 0, field.count) }
}
