/// The RLE / bit-packed hybrid encoding of definition levels, specialised to
/// bit width 1 (a flat OPTIONAL column: 1 = value present, 0 = NULL).
///
/// A run header is a ULEB128 varint: `count << 1` then one byte holding the
/// repeated value (RLE run), or `groups << 1 | 1` then `groups` bytes each
/// packing 8 levels LSB first (bit-packed run). Long runs of the same level
/// become RLE runs; mixed stretches are bit-packed 8 levels at a time.
enum ParquetLevelEncoder {
    /// Runs shorter than this are cheaper bit-packed than as their own RLE run.
    private static let minimumRepeatRun = 8

    static func encode(_ levels: [Bool]) -> [UInt8] {
        var output: [UInt8] = []
        var index = 0
        while index < levels.count {
            let run = runLength(levels, from: index)
            if run >= minimumRepeatRun || index + run == levels.count {
                appendVarint(UInt64(run) << 1, &output)
                output.append(levels[index] ? 1 : 0)
                index += run
                continue
            }
            // Bit-pack whole groups of 8 until a long run starts on a group boundary.
            var packed: [UInt8] = []
            repeat {
                var byte: UInt8 = 0
                for bit in 0..<8 where index + bit < levels.count && levels[index + bit] {
                    byte |= 1 << UInt8(bit)
                }
                packed.append(byte)
                index += 8  // The last group may run past the end: padding the reader ignores.
            } while index < levels.count && runLength(levels, from: index) < minimumRepeatRun
            appendVarint(UInt64(packed.count) << 1 | 1, &output)
            output.append(contentsOf: packed)
        }
        return output
    }

    /// `encode` of `count` equal levels, without the array: one RLE run
    /// (nothing for no levels).
    static func encodeRun(of level: Bool, count: Int) -> [UInt8] {
        guard count > 0 else { return [] }
        var output: [UInt8] = []
        appendVarint(UInt64(count) << 1, &output)
        output.append(level ? 1 : 0)
        return output
    }

    private static func runLength(_ levels: [Bool], from start: Int) -> Int {
        var end = start + 1
        while end < levels.count && levels[end] == levels[start] { end += 1 }
        return end - start
    }

    private static func appendVarint(_ value: UInt64, _ output: inout [UInt8]) {
        var remaining = value
        while remaining >= 0x80 {
            output.append(UInt8(truncatingIfNeeded: remaining) | 0x80)
            remaining >>= 7
        }
        output.append(UInt8(remaining))
    }
}

/// Decodes bit-width-1 RLE / bit-packed hybrid levels.
enum ParquetLevelDecoder {
    struct Failure: Error, Sendable { var detail: String }

    /// Decodes exactly `count` levels from `bytes[range]`.
    static func decode(_ bytes: [UInt8], range: Range<Int>, count: Int) throws(Failure) -> [Bool] {
        var levels: [Bool] = []
        levels.reserveCapacity(count)
        var position = range.lowerBound
        while levels.count < count {
            var header: UInt64 = 0
            var shift: UInt64 = 0
            while true {
                guard position < range.upperBound, shift < 64 else {
                    throw Failure(detail: "definition levels end inside a run header")
                }
                let byte = bytes[position]
                position += 1
                header |= UInt64(byte & 0x7F) << shift
                if byte & 0x80 == 0 { break }
                shift += 7
            }
            let remaining = count - levels.count
            if header & 1 == 0 {
                guard position < range.upperBound else {
                    throw Failure(detail: "definition levels end inside an RLE run")
                }
                let value = bytes[position] & 1 == 1
                position += 1
                let runCount = Int(clamping: header >> 1)
                guard runCount > 0 else { throw Failure(detail: "empty RLE run in definition levels") }
                levels.append(contentsOf: repeatElement(value, count: Swift.min(runCount, remaining)))
            } else {
                let groups = Int(clamping: header >> 1)
                guard groups > 0, groups <= range.upperBound - position else {
                    throw Failure(detail: "bit-packed run of \(groups) groups does not fit the definition levels")
                }
                for valueIndex in 0..<Swift.min(groups * 8, remaining) {
                    levels.append(bytes[position + valueIndex / 8] >> UInt8(valueIndex % 8) & 1 == 1)
                }
                position += groups
            }
        }
        return levels
    }
}
