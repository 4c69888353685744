/// subjects/notification_preferences.csv: a user's quiet hours from an
/// instant on (SPEC §11.1). Same (`user_id`, `effective_from`) → last wins.
package enum NotificationPreferenceColumn: Int, ExportColumns {
    case userID, effectiveFrom, quietStart, quietEnd

    package static let kind = "notification_preferences"

    package var name: String {
        switch self {
        case .userID: "user_id"
        case .effectiveFrom: "effective_from"
        case .quietStart: "quiet_start"
        case .quietEnd: "quiet_end"
        }
    }

    package var isRequired: Bool { self == .userID || self == .effectiveFrom }
}
