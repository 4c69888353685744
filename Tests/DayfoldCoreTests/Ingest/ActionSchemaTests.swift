import Foundation
import Testing

@testable import DayfoldCore

@Suite struct ActionSchemaTests {
    static func schema(_ text: String) -> ActionSchema { ActionSchema(ArraySlice(Array(text.utf8))) }

    @Test(arguments: [
        (#"{"value_capture":{"mode":"ACCUMULATE","target":8,"unit":"glass"}}"#, true, false),
        (#"{"informational": true, "route": "x"}"#, false, true),
        (#"{"informational": false}"#, false, false),
        (#"{"informational": "true"}"#, false, false),
        (#"{"value_capture": null}"#, false, false),
        (#"{"nested": {"value_capture": {}, "informational": true}}"#, false, false),
        (#" { "a" : [1, -2.5e3, "q\"\u00e9", true, null, {}] , "value_capture" : {} } "#, true, false),
        ("[]", false, false), ("{}", false, false),
    ])
    func validSchemasAreRead(text: String, valueCapture: Bool, informational: Bool) {
        let schema = Self.schema(text)
        #expect(schema.valid)
        #expect(schema.valueCapture == valueCapture)
        #expect(schema.informational == informational)
    }

    @Test(arguments: [
        #"{"value_capture": {"#, #"{value_capture: {}}"#, #"{"a": 01}"#, #"{"a": tru}"#, #"{"a": 1,}"#, "{} {}",
        #"{"a": "\x"}"#, "nope",
    ])
    func invalidJSONReadsAsEmptyAndIsFlagged(text: String) {
        let schema = Self.schema(text)
        #expect(!schema.valid)
        #expect(!schema.valueCapture && !schema.informational)
    }

    /// (Foundation on Linux also accepts a trailing comma in an array; RFC 8259 does not, nor do we.)
    @Test func scannerAgreesWithFoundationOnValidity() {
        let samples = [#"{"a":[1,2,{"b":null}]}"#, #"{"a":1e}"#, #"{"a":-0.5}"#, #"{"a":"\u12"}"#, "123", #""s""#]
        for sample in samples {
            let foundation =
                (try? JSONSerialization.jsonObject(with: Data(sample.utf8), options: [.fragmentsAllowed])) != nil
            #expect(Self.schema(sample).valid == foundation, "\(sample)")
        }
    }
}
