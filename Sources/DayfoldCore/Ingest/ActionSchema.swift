/// What an instance's `action_schema` says about scoring: a value task has
/// an object `value_capture`; an informational reminder has
/// `"informational": true`. Invalid JSON reads as `{}` (neither) and is
/// counted as a warning (SPEC §9). A small byte scanner validates the JSON
/// and looks at the top-level keys without building a dictionary per row.
struct ActionSchema {
    var valid = true
    var valueCapture = false
    var informational = false

    init(_ bytes: ArraySlice<UInt8>?) {
        guard let bytes else { return }
        var scanner = JSONScanner(bytes: bytes)
        guard let facts = scanner.scanDocument() else {
            valid = false
            return
        }
        valueCapture = facts.valueCaptureIsObject
        informational = facts.informationalIsTrue
    }
}
