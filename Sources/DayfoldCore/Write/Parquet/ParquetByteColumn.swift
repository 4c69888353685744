/// A column of UTF-8 byte strings stored back to back: one buffer, an end
/// offset and a NULL flag per row. Writers fill it straight from the bytes
/// they have (a spill file's fields, a String's UTF-8), and encoding and
/// statistics read it without touching a `String` per value — on tables of
/// millions of ids, retaining and releasing each String was most of the cost.
public struct ParquetByteColumn: Sendable, Equatable {
    public private(set) var bytes: [UInt8] = []
    /// Per row: one past its last byte in `bytes`.
    public private(set) var ends: [Int] = []
    /// Per row: true for NULL.
    public private(set) var nulls: [Bool] = []
    public private(set) var nullCount = 0
    /// Runs of rows known to hold one value, in row order, each over one
    /// row long: the rows the run-wise appends wrote (a relationship's id
    /// over its days). A hint, not part of the values (equality ignores
    /// it; a column built row by row has none): statistics, PLAIN encoding
    /// and page splitting read a run's value once instead of once per row.
    public private(set) var repeated: [Range<Int>] = []

    public init() {}

    public static func == (lhs: ParquetByteColumn, rhs: ParquetByteColumn) -> Bool {
        lhs.bytes == rhs.bytes && lhs.ends == rhs.ends && lhs.nulls == rhs.nulls
    }

    public init(_ values: [String?]) {
        for value in values { append(value) }
    }

    public var count: Int { ends.count }

    public mutating func append(_ value: String?) {
        guard let value else { return appendNull() }
        ByteCopy.append(value.utf8.span, into: &bytes)
        ends.append(bytes.count)
        nulls.append(false)
    }

    public mutating func append(_ value: ArraySlice<UInt8>) {
        bytes.append(contentsOf: value)
        ends.append(bytes.count)
        nulls.append(false)
    }

    /// Appends bytes read in place (`ByteStrings.withString`, `ByteKeyTable.withKey`).
    mutating func append(_ value: Span<UInt8>) {
        ByteCopy.append(value, into: &bytes)
        ends.append(bytes.count)
        nulls.append(false)
    }

    /// Appends row `row` of `values`, a small column whose values many rows
    /// repeat (one per relationship): the bytes are copied in place, so a
    /// row takes no array to retain and release.
    mutating func append(row: Int, of values: ParquetByteColumn) {
        if values.nulls[row] { return appendNull() }
        ByteCopy.append(values.bytes.span.extracting(values.range(row)), into: &bytes)
        ends.append(bytes.count)
        nulls.append(false)
    }

    /// Appends row `row` of `values` `count` times (a relationship's id over
    /// a run of its days): the bytes are copied by doubling, not per row.
    mutating func append(row: Int, of values: ParquetByteColumn, count: Int) {
        guard count > 0 else { return }
        if values.nulls[row] {
            for _ in 0..<count { appendNull() }
            return
        }
        appendRepeating(values.bytes.span.extracting(values.range(row)), count: count)
    }

    /// Appends `value(row)` for each of `rows`, each run of equal
    /// neighbours as one run (`repeated`): a table whose rows repeat a
    /// value (a user's id over their Progress windows, a source, a label)
    /// copies its bytes by doubling, and its statistics and encoding read
    /// it once. The bytes are those of the values appended one by one.
    mutating func appendRuns(_ rows: Range<Int>, _ value: (Int) -> String?) {
        guard var row = rows.first else { return }
        var current = value(row)
        var start = row
        row += 1
        while row < rows.upperBound {
            let next = value(row)
            if next != current {
                appendRun(current, count: row - start)
                (current, start) = (next, row)
            }
            row += 1
        }
        appendRun(current, count: rows.upperBound - start)
    }

    private mutating func appendRun(_ value: String?, count: Int) {
        guard let value else {
            for _ in 0..<count { appendNull() }
            return
        }
        append(value, count: count)
    }

    /// Appends `value` `count` times (see `append(row:of:count:)`).
    mutating func append(_ value: String, count: Int) {
        appendRepeating(value.utf8.span, count: count)
    }

    private mutating func appendRepeating(_ value: Span<UInt8>, count: Int) {
        guard count > 0 else { return }
        if count > 1 { repeated.append(ends.count..<ends.count + count) }
        let start = bytes.count
        ByteCopy.appendRepeating(value, count: count, into: &bytes)
        for index in 1...count { ends.append(start + index * value.count) }
        nulls.append(contentsOf: repeatElement(false, count: count))
    }

    /// Appends a value written by `build` straight into the buffer (true), or
    /// NULL (false; whatever `build` appended is dropped).
    mutating func appendBuilt(_ build: (inout [UInt8]) -> Bool) {
        let start = bytes.count
        if build(&bytes) {
            ends.append(bytes.count)
            nulls.append(false)
        } else {
            bytes.removeSubrange(start...)
            appendNull()
        }
    }

    /// Appends `count` values of `width` bytes each, written back to back
    /// by `build` (values made together, like digests hashed side by side).
    mutating func appendBuilt(_ count: Int, width: Int, _ build: (inout [UInt8]) -> Void) {
        let start = bytes.count
        build(&bytes)
        precondition(bytes.count == start + count * width, "built values of the announced width")
        for index in 0..<count {
            ends.append(start + (index + 1) * width)
            nulls.append(false)
        }
    }

    /// Room for `rows` more rows (and `bytes` more value bytes, when known):
    /// a column that grows by doubling copies and faults in its pages again.
    mutating func reserveRows(_ rows: Int, bytes valueBytes: Int = 0) {
        ends.reserveCapacity(ends.count + rows)
        nulls.reserveCapacity(nulls.count + rows)
        if valueBytes > 0 { bytes.reserveCapacity(bytes.count + valueBytes) }
    }

    public mutating func appendNull() {
        ends.append(bytes.count)
        nulls.append(true)
        nullCount += 1
    }

    public mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        ends.removeAll(keepingCapacity: true)
        nulls.removeAll(keepingCapacity: true)
        repeated.removeAll(keepingCapacity: true)
        nullCount = 0
    }

    /// The byte range of row `row`'s value (empty for NULL).
    @inline(__always) func range(_ row: Int) -> Range<Int> { (row == 0 ? 0 : ends[row - 1])..<ends[row] }

    /// The values as Strings (for reading back and tests).
    public var strings: [String?] {
        (0..<count).map { nulls[$0] ? nil : String(decoding: bytes[range($0)], as: UTF8.self) }
    }

    /// `self` followed by `other`'s rows.
    func appending(_ other: ParquetByteColumn) -> ParquetByteColumn {
        var column = self
        column.bytes += other.bytes
        column.ends += other.ends.map { $0 + bytes.count }
        column.nulls += other.nulls
        column.nullCount += other.nullCount
        column.repeated += other.repeated.map { ($0.lowerBound + count)..<($0.upperBound + count) }
        return column
    }

    /// Rows `rows` as a new column.
    func slice(_ rows: Range<Int>) -> ParquetByteColumn {
        var column = ParquetByteColumn()
        for row in rows {
            if nulls[row] { column.appendNull() } else { column.append(bytes[range(row)]) }
        }
        return column
    }
}
