import Testing

@testable import DayfoldCore

/// The CSV-injection guard (SPEC §7, §10): a text cell starting with `=`,
/// `+`, `-`, `@`, tab or CR gets a leading `'` unless it is a plain decimal
/// `-?digits[.digits][e±digits]`; `Double()` took `-0x1p3`, `+inf`, `-nan`.
@Suite struct FormulaGuardTests {
    @Test(arguments: [
        ("-0x1p3", "'-0x1p3"), ("+inf", "'+inf"), ("-nan", "'-nan"), ("-inf", "'-inf"), ("-1e", "'-1e"),
        ("=1+1", "'=1+1"), ("@x", "'@x"), ("\tx", "'\tx"), ("\rx", "\"'\rx\""), ("+5", "'+5"), ("-.5", "'-.5"),
        ("-1.", "'-1."), ("-1.5e3", "-1.5e3"), ("-12", "-12"), ("-0.25", "-0.25"), ("-1e-05", "-1e-05"),
        ("-2E+16", "-2E+16"), ("12", "12"), ("plain", "plain"), ("-", "'-"),
    ])
    func cellsAreGuardedUnlessPlainDecimals(cell: String, written: String) {
        var output: [UInt8] = []
        CSVReportWriter.escape(cell, into: &output)
        #expect(String(decoding: output, as: UTF8.self) == written)
    }

    /// The byte-column path (`appendField`) guards the same way.
    @Test func byteFieldsAreGuardedAlike() {
        for (cell, written) in [("-0x1p3", "'-0x1p3"), ("-12", "-12")] {
            var output: [UInt8] = []
            CSVReportWriter.appendField(Array(cell.utf8).span, into: &output, guardFormulas: true)
            #expect(String(decoding: output, as: UTF8.self) == written)
        }
    }
}
