/// subjects/preferences.csv: a user's Progress source (SPEC §1.2).
package enum PreferenceColumn: Int, ExportColumns {
    case userID, progressSource

    package static let kind = "preferences"

    package var name: String {
        switch self {
        case .userID: "user_id"
        case .progressSource: "progress_source"
        }
    }

    package var isRequired: Bool {
        switch self {
        case .userID: true
        case .progressSource: false
        }
    }
}
