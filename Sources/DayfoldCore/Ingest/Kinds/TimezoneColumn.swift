/// subjects/timezones.csv: a user's zone history (SPEC §1.2).
package enum TimezoneColumn: Int, ExportColumns {
    case userID, timezone, effectiveFrom

    package static let kind = "timezones"

    package var name: String {
        switch self {
        case .userID: "user_id"
        case .timezone: "timezone"
        case .effectiveFrom: "effective_from"
        }
    }

    package var isRequired: Bool { true }
}
