import Testing

@testable import DayfoldCore

/// Booleans and closed vocabularies are matched as bytes when the field is
/// ASCII; the answers (and reject reasons) are those of the String rules:
/// `lowercased()` for booleans, Swift String equality for choices.
@Suite struct CSVRowTests {
    static func row(_ field: String) -> CSVRow {
        let record = CSVRecord()
        record.appendField(Array(field.utf8))
        return CSVRow(record: record, columns: [CSVSource.Column(name: "flag", required: false)], indexes: [0])
    }

    @Test(arguments: [
        ("true", true), ("TRUE", true), ("tRuE", true), ("t", true), ("T", true), ("1", true),
        ("false", false), ("False", false), ("f", false), ("F", false), ("0", false),
    ])
    func booleansInAnyCase(field: String, expected: Bool) {
        var row = Self.row(field)
        #expect(row.bool(0) == expected)
        #expect(row.rejectReason == nil)
    }

    @Test(arguments: ["yes", "2", "truee", " true", "ＴＲＵＥ", "trüe"])
    func otherBooleansReject(field: String) {
        var row = Self.row(field)
        #expect(row.bool(0) == nil)
        #expect(row.rejectReason == "bad_bool:flag")
    }

    @Test func aNullBooleanIsNil() {
        var row = Self.row("")
        #expect(row.bool(0) == nil)
        #expect(row.rejectReason == nil)
    }

    @Test func choicesMatchAsSwiftStringsDo() {
        var exact = Self.row("COMPLETED")
        #expect(exact.choice(0, .workoutLogStatus) == "COMPLETED")
        // Lower case is another value.
        var lower = Self.row("completed")
        #expect(lower.choice(0, .workoutLogStatus) == nil)
        #expect(lower.rejectReason == "unknown_status:flag")
        // U+212A KELVIN SIGN is canonically equivalent to K: Swift's String
        // equality accepts it, and so does the byte path's fallback.
        var kelvin = Self.row("S\u{212A}IPPED")
        #expect(kelvin.choice(0, .workoutLogStatus) == "S\u{212A}IPPED")
        #expect(kelvin.rejectReason == nil)
    }
}
