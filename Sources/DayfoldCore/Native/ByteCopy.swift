/// Bulk copies into a byte buffer whose room is taken once and written in
/// place, for the writers' per-value loops: appending byte by byte (a
/// capacity and uniqueness check each) was most of the time of CSV row
/// assembly and of Parquet PLAIN encoding.
enum ByteCopy {
    /// Appends `source` (a String's UTF-8, a slice of a buffer) in one copy.
    static func append(_ source: Span<UInt8>, into bytes: inout [UInt8]) {
        source.withUnsafeBufferPointer { bytes.append(contentsOf: $0) }
    }

    /// Appends `source` `count` times back to back: written once, then the
    /// written run copied onto its end, doubling, so a value repeated over
    /// a relationship's hundreds of days takes a handful of copies, not one
    /// per row.
    static func appendRepeating(_ source: Span<UInt8>, count: Int, into bytes: inout [UInt8]) {
        let width = source.count
        guard count > 0, width > 0 else { return }
        bytes.append(addingCapacity: width * count) { span in
            span.withUnsafeMutableBufferPointer { room, initialized in
                guard let target = room.baseAddress else { return }
                source.withUnsafeBufferPointer { value in
                    if let base = value.baseAddress { target.initialize(from: base, count: width) }
                }
                var written = width
                let total = width * count
                while written < total {
                    let chunk = Swift.min(written, total - written)
                    (target + written).initialize(from: target, count: chunk)
                    written += chunk
                }
                initialized = total
            }
        }
    }

    /// Appends a grid of cells stored column by column (`cells`, cell
    /// `column * rows + row` ending at `ends[cell]`) row by row: each cell
    /// followed by `separator`, the last of a row by `terminator`. A short
    /// cell (most are a few bytes) is copied byte by byte, a longer one (an
    /// id) by one `memcpy`; the bounds of the room are checked once, not
    /// per byte.
    static func appendRows(
        cells: [UInt8], ends: [Int], rows: Int, columns: Int, separator: UInt8, terminator: UInt8,
        into output: inout [UInt8]
    ) {
        precondition(ends.count == rows * columns, "one end per cell")
        guard columns > 0 else { return output.append(contentsOf: repeatElement(terminator, count: rows)) }
        let total = cells.count + rows * columns
        output.append(addingCapacity: total) { span in
            span.withUnsafeMutableBufferPointer { room, initialized in
                precondition(room.count >= total, "room for every cell and separator")
                guard let target = room.baseAddress else { return }
                var at = 0
                cells.withUnsafeBufferPointer { text in
                    ends.withUnsafeBufferPointer { ends in
                        for row in 0..<rows {
                            for column in 0..<columns {
                                let cell = column * rows + row
                                let start = cell == 0 ? 0 : ends[cell - 1]
                                let length = ends[cell] - start
                                if length > 0, let source = text.baseAddress {
                                    if length <= 8 {
                                        for index in 0..<length { target[at + index] = source[start + index] }
                                    } else {
                                        (target + at).initialize(from: source + start, count: length)
                                    }
                                    at += length
                                }
                                target[at] = column + 1 < columns ? separator : terminator
                                at += 1
                            }
                        }
                    }
                }
                initialized = at
            }
        }
    }

    /// Appends `word(value)` for each non-NULL value, the words stored back
    /// to back in their in-memory layout (the caller gives them the byte
    /// order it wants): the room is sized once, then written in place.
    static func appendWords<Value, Word: FixedWidthInteger>(
        _ values: ArraySlice<Value?>, into bytes: inout [UInt8], _ word: (Value) -> Word
    ) {
        var present = 0
        for value in values where value != nil { present += 1 }
        let start = bytes.count
        bytes.append(contentsOf: repeatElement(0, count: present * MemoryLayout<Word>.size))
        bytes.withUnsafeMutableBytes { output in
            var offset = start
            for case let value? in values {
                output.storeBytes(of: word(value), toByteOffset: offset, as: Word.self)
                offset += MemoryLayout<Word>.size
            }
        }
    }

    /// Appends, for each non-NULL value of `column` in `rows`, its length as
    /// 4 little-endian bytes and then its bytes (Parquet's PLAIN byte
    /// arrays): the room is sized once, then written in place. A run of
    /// rows the column knows repeat one value (`repeated`) is written once
    /// and then copied onto its own end, doubling.
    static func appendLengthPrefixed(_ column: ParquetByteColumn, rows: Range<Int>, into bytes: inout [UInt8]) {
        var size = 0
        forEachRun(of: column, in: rows) { row, count in
            if !column.nulls[row] { size += count * (4 + column.range(row).count) }
        }
        let start = bytes.count
        bytes.append(contentsOf: repeatElement(0, count: size))
        bytes.withUnsafeMutableBytes { output in
            column.bytes.withUnsafeBytes { source in
                guard let target = output.baseAddress else { return }
                var offset = start
                forEachRun(of: column, in: rows) { row, count in
                    guard !column.nulls[row] else { return }
                    let range = column.range(row)
                    output.storeBytes(of: UInt32(range.count).littleEndian, toByteOffset: offset, as: UInt32.self)
                    UnsafeMutableRawBufferPointer(rebasing: output[(offset + 4)..<(offset + 4 + range.count)])
                        .copyMemory(from: UnsafeRawBufferPointer(rebasing: source[range]))
                    let width = 4 + range.count
                    var written = width
                    let total = width * count
                    while written < total {
                        let chunk = Swift.min(written, total - written)
                        (target + offset + written).copyMemory(from: target + offset, byteCount: chunk)
                        written += chunk
                    }
                    offset += total
                }
            }
        }
    }

    /// Calls `body(row, count)` for each run of rows in `rows` that hold one
    /// value: the parts of `column.repeated` inside `rows` (a page can start
    /// or end inside one), and every other row alone.
    @inline(__always)
    static func forEachRun(of column: ParquetByteColumn, in rows: Range<Int>, _ body: (Int, Int) -> Void) {
        let runs = column.repeated
        // The first run that ends after the first row, by bisection.
        var low = 0
        var high = runs.count
        while low < high {
            let middle = (low + high) / 2
            if runs[middle].upperBound <= rows.lowerBound { low = middle + 1 } else { high = middle }
        }
        var run = low
        var row = rows.lowerBound
        while row < rows.upperBound {
            if run < runs.count && runs[run].lowerBound <= row {
                let end = Swift.min(runs[run].upperBound, rows.upperBound)
                body(row, end - row)
                row = end
                run += 1
            } else {
                body(row, 1)
                row += 1
            }
        }
    }
}
