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
    // `Double(String)` also takes "infinity", "nan" and hex: only decimal syntax is a number.
    guard hasNumberSyntax(bytes, start, end), let text = String(validating: Array(bytes[start..<end]), as: UTF8.self)
    else { return nil }
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

/// The largest magnitude an input number may have (SPEC §10): a sum of
/// millions of such values stays far from overflow, and every conversion
/// to an integer (a kcal count in a sentence) fits.
let inputNumberLimit = 1e12

/// An input field read as a number under SPEC §10's bound.
enum InputNumber {
    case value(Double)
    /// Decimal syntax, but not finite as a Double or beyond `inputNumberLimit`.
    case outOfRange
    case nonNumeric
}

/// `parseDouble` with the bound: a value beyond ±`inputNumberLimit`, or a
/// decimal too large for a Double (`1e400`), is `outOfRange`.
func parseInputNumber<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes, _ start: Int, _ end: Int) -> InputNumber
where Bytes.Index == Int {
    if let value = parseDouble(bytes, start, end) {
        return value.magnitude <= inputNumberLimit ? .value(value) : .outOfRange
    }
    return hasNumberSyntax(bytes, start, end) ? .outOfRange : .nonNumeric
}

/// Whether `bytes[start..<end]` is written as `parseDouble` reads a number:
/// `[+-]` digits with an optional point (digits on at least one side) and
/// an optional exponent `e`/`E` `[+-]` digits. (Only asked on the cold path:
/// a field `parseDouble` refused.)
func hasNumberSyntax<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes, _ start: Int, _ end: Int) -> Bool
where Bytes.Index == Int {
    var index = start
    if index < end && (bytes[index] == 0x2B || bytes[index] == 0x2D) { index += 1 }
    var digits = 0
    while index < end, bytes[index] >= 0x30, bytes[index] <= 0x39 {
        digits += 1
        index += 1
    }
    if index < end && bytes[index] == 0x2E {
        index += 1
        while index < end, bytes[index] >= 0x30, bytes[index] <= 0x39 {
            digits += 1
            index += 1
        }
    }
    guard digits > 0 else { return false }
    if index < end && (bytes[index] == 0x65 || bytes[index] == 0x45) {
        index += 1
        if index < end && (bytes[index] == 0x2B || bytes[index] == 0x2D) { index += 1 }
        var exponentDigits = 0
        while index < end, bytes[index] >= 0x30, bytes[index] <= 0x39 {
            exponentDigits += 1
            index += 1
        }
        guard exponentDigits > 0 else { return false }
    }
    return index == end
}

/// The CSV-injection guard's number test (SPEC §10): a plain decimal
/// `-?digits[.digits][e±digits]` and nothing else, so a cell such as
/// `-0x1p3`, `+inf` or `-nan` (numbers to `Double()`) still gets its `'`.
/// A byte scan with no String and no allocation (every report cell that
/// starts with `-` is asked).
func isPlainDecimal(_ text: some Collection<UInt8>) -> Bool {
    var iterator = text.makeIterator()
    var byte = iterator.next()
    if byte == 0x2D { byte = iterator.next() }
    func digitRun() -> Int {
        var count = 0
        while let current = byte, current >= 0x30, current <= 0x39 {
            count += 1
            byte = iterator.next()
        }
        return count
    }
    guard digitRun() > 0 else { return false }
    if byte == 0x2E {
        byte = iterator.next()
        guard digitRun() > 0 else { return false }
    }
    if byte == 0x65 || byte == 0x45 {
        byte = iterator.next()
        if byte == 0x2B || byte == 0x2D { byte = iterator.next() }
        guard digitRun() > 0 else { return false }
    }
    return byte == nil
}
