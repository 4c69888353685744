/// Decimal text of integers written straight into a byte buffer (what
/// `String(value)` writes, with no String): most report cells are counts.
enum DecimalDigits {
    /// Appends the decimal digits of `value` (a leading `-` when negative).
    /// The digits are made right to left in a small buffer and appended at
    /// once; a single digit, the common count, is one append.
    static func append(_ value: Int64, into output: inout [UInt8]) {
        if value >= 0 && value < 10 { return output.append(0x30 &+ UInt8(truncatingIfNeeded: value)) }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var magnitude = value.magnitude
            var position = digits.count
            repeat {
                position -= 1
                digits[position] = UInt8(truncatingIfNeeded: 0x30 &+ magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            if value < 0 {
                position -= 1
                digits[position] = 0x2D
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: digits[position...]))
        }
    }
}
