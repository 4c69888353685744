import Testing

@testable import DayfoldCore

/// Bulk copies into room taken once give the bytes a plain append would.
@Suite struct ByteCopyTests {
    @Test(arguments: [(0, 0), (3, 0), (0, 2), (1, 1), (3, 4)])
    func gridsAreWrittenRowByRowWithSeparators(rows: Int, columns: Int) {
        // Cells of 0 to 20 bytes: both the short copy and the long one.
        let cell = { (row: Int, column: Int) in
            Array(String(repeating: "v\(row)\(column)", count: (row * 3 + column * 5) % 7).utf8)
        }
        var cells: [UInt8] = []
        var ends: [Int] = []
        for column in 0..<columns {
            for row in 0..<rows {
                cells += cell(row, column)
                ends.append(cells.count)
            }
        }
        var output: [UInt8] = Array("head\n".utf8)
        ByteCopy.appendRows(
            cells: cells, ends: ends, rows: rows, columns: columns, separator: 0x2C, terminator: 0x0A, into: &output)
        var expected: [UInt8] = Array("head\n".utf8)
        for row in 0..<rows {
            for column in 0..<columns {
                expected += cell(row, column)
                if column + 1 < columns { expected.append(0x2C) }
            }
            expected.append(0x0A)
        }
        #expect(output == expected)
    }

    @Test func presentValuesAreWrittenWithLittleEndianLengths() {
        let column = ParquetByteColumn(["skipped", "cde", nil, "", "j"])
        var output: [UInt8] = [0xEE]
        ByteCopy.appendLengthPrefixed(column, rows: 1..<5, into: &output)
        #expect(output == [0xEE, 3, 0, 0, 0, 0x63, 0x64, 0x65, 0, 0, 0, 0, 1, 0, 0, 0, 0x6A])
    }

    @Test func wordsOfPresentValuesAreStoredBackToBack() {
        var output: [UInt8] = [0xEE]
        let values: [Int32?] = [1, nil, -2, 0x0102_0304]
        ByteCopy.appendWords(values[...], into: &output) { UInt32(bitPattern: $0).littleEndian }
        #expect(output == [0xEE, 1, 0, 0, 0, 0xFE, 0xFF, 0xFF, 0xFF, 4, 3, 2, 1])
    }

    /// A value repeated by doubling gives the bytes of as many plain appends,
    /// for counts on and off powers of two, after bytes already there.
    @Test(arguments: [0, 1, 2, 3, 7, 8, 9, 300])
    func aRepeatedValueIsTheValueBackToBack(count: Int) {
        let value = Array("3f2c-relationship".utf8)
        var output: [UInt8] = [0xEE]
        ByteCopy.appendRepeating(value.span, count: count, into: &output)
        #expect(output == [0xEE] + Array([[UInt8]](repeating: value, count: count).joined()))
    }
}
