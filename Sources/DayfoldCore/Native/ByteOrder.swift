import Foundation

/// Byte-wise string order (SPEC §9: "Strings sort by bytes"), by `memcmp`
/// on the strings' UTF-8 storage.
public func bytesLess(_ lhs: String, _ rhs: String) -> Bool {
    var left = lhs
    var right = rhs
    return left.withUTF8 { a in right.withUTF8 { b in bytesLess(a, b) } }
}

/// `bytesLess` for byte slices.
func bytesLess(_ lhs: ArraySlice<UInt8>, _ rhs: ArraySlice<UInt8>) -> Bool {
    lhs.withUnsafeBufferPointer { a in rhs.withUnsafeBufferPointer { b in bytesLess(a, b) } }
}

/// `bytesLess` for two ranges of one buffer.
@inline(__always)
func bytesLess(_ buffer: UnsafeBufferPointer<UInt8>, _ lhs: Range<Int>, _ rhs: Range<Int>) -> Bool {
    bytesLess(UnsafeBufferPointer(rebasing: buffer[lhs]), UnsafeBufferPointer(rebasing: buffer[rhs]))
}

/// The one comparison: unsigned bytes, then the shorter first.
@inline(__always)
func bytesLess(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
    let common = min(a.count, b.count)
    if common > 0, let x = a.baseAddress, let y = b.baseAddress {
        let order = memcmp(x, y, common)
        if order != 0 { return order < 0 }
    }
    return a.count < b.count
}
