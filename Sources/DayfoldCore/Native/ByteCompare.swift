import Foundation

/// Comparisons of byte strings read in place, for the writers' per-row
/// tests (see `ByteOrder.swift` for the order itself, `bytesLess`).

/// Whether `field` holds exactly the bytes of `key`: one `memcmp` (the
/// partitioned merge asks it for every row it takes; a generic
/// element-by-element comparison of the slice grew to 1 % of a 2 GB run).
func bytesEqual(_ field: ArraySlice<UInt8>, _ key: [UInt8]) -> Bool {
    guard field.count == key.count else { return false }
    return field.withUnsafeBufferPointer { field in
        key.withUnsafeBufferPointer { key in
            guard let left = field.baseAddress, let right = key.baseAddress else { return true }
            return memcmp(left, right, key.count) == 0
        }
    }
}

/// The byte ranges of the smallest and the largest non-NULL value (by
/// `bytesLess`) of strings stored back to back in `bytes` (value `row`
/// ends at `ends[row]`; `nulls[row]` marks NULL), or nil when all are NULL.
/// Each value's first 8 bytes, as a big-endian number, decide most
/// comparisons without a `memcmp`. On ties the first such value is kept.
/// `repeated` lists runs of rows known to hold one value (in row order):
/// only a run's first row is read, so a column of ids repeated over
/// relationships' days costs a comparison per relationship, not per day.
/// The loop walks the runs itself: through `ByteCopy.forEachRun` (which
/// also finds where a page starts inside a run) this function took 15 %
/// more instructions.
/// Inlined into its caller: as a call of its own, the loop was compiled
/// with its buffers' addresses spilled and reloaded each row (11 % more
/// instructions than when the loop sat in the statistics).
@inline(__always)
func byteStringExtremes(
    bytes: [UInt8], ends: [Int], nulls: [Bool], repeated: [Range<Int>] = []
) -> (min: Range<Int>, max: Range<Int>)? {
    precondition(nulls.count == ends.count, "a NULL flag per value")
    return bytes.withUnsafeBufferPointer { bytes in
        ends.withUnsafeBufferPointer { ends in
            nulls.withUnsafeBufferPointer { nulls in
                var lowPrefix = UInt64.max
                var lowRange = 0..<0
                var highPrefix = UInt64.min
                var highRange = 0..<0
                var seen = false
                var next = 0
                var run = 0
                var nextRun = repeated.isEmpty ? Int.max : repeated[0].lowerBound
                while next < ends.count {
                    let row = next
                    if row == nextRun {
                        next = repeated[run].upperBound
                        run += 1
                        nextRun = run < repeated.count ? repeated[run].lowerBound : Int.max
                    } else {
                        next = row + 1
                    }
                    if nulls[row] { continue }
                    let range = (row == 0 ? 0 : ends[row - 1])..<ends[row]
                    let prefix = orderPrefix(bytes, range)
                    if !seen {
                        (lowPrefix, lowRange, highPrefix, highRange, seen) = (prefix, range, prefix, range, true)
                        continue
                    }
                    if prefix < lowPrefix || (prefix == lowPrefix && tiedLess(bytes, range, lowRange)) {
                        (lowPrefix, lowRange) = (prefix, range)
                    }
                    if prefix > highPrefix || (prefix == highPrefix && tiedLess(bytes, highRange, range)) {
                        (highPrefix, highRange) = (prefix, range)
                    }
                }
                return seen ? (lowRange, highRange) : nil
            }
        }
    }
}

/// `bytesLess` for two values whose `orderPrefix` is the same. A value of
/// at most 8 bytes is then the other's prefix (so the shorter is less), and
/// the next 8 bytes decide most of the rest the same way: a column that
/// repeats a short value (a zone name over a relationship's days) ties on
/// every row, and a `memcmp` per row was most of its statistics.
@inline(__always)
private func tiedLess(_ bytes: UnsafeBufferPointer<UInt8>, _ lhs: Range<Int>, _ rhs: Range<Int>) -> Bool {
    if lhs.count <= 8 || rhs.count <= 8 { return lhs.count < rhs.count }
    let left = orderPrefix(bytes, (lhs.lowerBound + 8)..<lhs.upperBound)
    let right = orderPrefix(bytes, (rhs.lowerBound + 8)..<rhs.upperBound)
    if left != right { return left < right }
    if lhs.count <= 16 || rhs.count <= 16 { return lhs.count < rhs.count }
    return bytesLess(bytes, lhs, rhs)
}

/// Up to the first 8 bytes of a value as a big-endian number (zero
/// padded): when two prefixes differ they order the values as `bytesLess`
/// does; when equal, the bytes must be compared.
@inline(__always)
private func orderPrefix(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> UInt64 {
    if range.count >= 8, let base = bytes.baseAddress {
        return UInt64(bigEndian: UnsafeRawPointer(base + range.lowerBound).loadUnaligned(as: UInt64.self))
    }
    var prefix: UInt64 = 0
    let end = Swift.min(range.upperBound, range.lowerBound + 8)
    for index in range.lowerBound..<end { prefix = prefix << 8 | UInt64(bytes[index]) }
    return prefix << (8 * UInt64(8 - (end - range.lowerBound)))
}
