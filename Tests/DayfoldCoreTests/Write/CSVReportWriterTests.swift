import Foundation
import Testing

@testable import DayfoldCore

/// Reports are opened in spreadsheets: RFC 4180 quoting, NULL as an empty
/// field, and the CSV-injection guard.
@Suite struct CSVReportWriterTests {
    static func written(_ cells: [String?]) throws -> String {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("r.csv").path
        let writer = try CSVReportWriter(path: path, header: ["a"])
        try writer.append(row: cells)
        try writer.finish()
        let text = try String(contentsOfFile: path, encoding: .utf8)
        return String(text.dropFirst(2).dropLast())  // header "a\n", trailing "\n"
    }

    @Test(arguments: [
        ("=HYPERLINK(\"x\")", #""'=HYPERLINK(""x"")""#), ("+1+2", "'+1+2"), ("-abc", "'-abc"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\tx", "'\tx"), ("-5", "-5"), ("+3.5", "'+3.5"), ("-1e-05", "-1e-05"), ("plain", "plain"),
    ])
    func formulaLikeCellsGetALeadingQuote(cell: String, expected: String) throws {
        #expect(try Self.written([cell]) == expected)
    }

    @Test func quotingAndNulls() throws {
        #expect(
            try Self.written(["a,b", nil, "say \"hi\"", "two\nlines", ""])
                == "\"a,b\",,\"say \"\"hi\"\"\",\"two\nlines\",")
    }

    /// Integer cells are written as `String(value)` would: one digit, many,
    /// negative, and both ends of Int64.
    @Test func integersAreWrittenAsTheirDecimalText() {
        var generator = ParquetTestRandom(state: 3)
        let values: [Int64] =
            [0, 1, 9, 10, 11, 99, 100, -1, -9, -10, -100, 1_000_000_007, Int64.max, Int64.min, Int64.min + 1]
            + (0..<200).map { _ in Int64.random(in: Int64.min...Int64.max, using: &generator) }
        for value in values {
            var output: [UInt8] = Array("x".utf8)
            CSVReportWriter.appendInteger(value, into: &output)
            #expect(String(decoding: output, as: UTF8.self) == "x" + String(value), "\(value)")
        }
    }
}
