/// health/<user>/*.csv: health samples (SPEC §1.5). Every column is
/// optional to the generic reader: a row of an unknown type is ignored
/// whatever it lacks or holds (ids included), so `judgeHealth` checks the
/// required ones itself, in health's order (SPEC §9).
package enum HealthColumn: Int, ExportColumns {
    case userID, type, value, unit, start, end, sourceName, sourceBundleID, device

    package static let kind = "health"

    package var name: String {
        switch self {
        case .userID: "user_id"
        case .type: "type"
        case .value: "value"
        case .unit: "unit"
        case .start: "start"
        case .end: "end"
        case .sourceName: "source_name"
        case .sourceBundleID: "source_bundle_id"
        case .device: "device"
        }
    }

    package var isRequired: Bool { false }

    /// Ids are checked by `judgeHealth`, after the type.
    package var isCheckedAsID: Bool { false }

    /// What a row of a known type must have.
    package var isExpected: Bool {
        switch self {
        case .userID, .type, .value, .unit, .start: true
        case .end, .sourceName, .sourceBundleID, .device: false
        }
    }
}
