/// push/installations: the app installations a notification can go to (SPEC §11.1).
/// A state export: the same `id` again replaces the earlier row.
package enum PushInstallationColumn: Int, ExportColumns {
    case id, userID, appSurface, platform, provider
    case appVersion, environment, permissionStatus, locale, timezone, lastSeenAt, revokedAt

    package static let kind = "push_installations"

    package var name: String {
        switch self {
        case .id: "id"
        case .userID: "user_id"
        case .appSurface: "app_surface"
        case .platform: "platform"
        case .provider: "provider"
        case .appVersion: "app_version"
        case .environment: "environment"
        case .permissionStatus: "permission_status"
        case .locale: "locale"
        case .timezone: "timezone"
        case .lastSeenAt: "last_seen_at"
        case .revokedAt: "revoked_at"
        }
    }

    package var isRequired: Bool {
        switch self {
        case .id, .userID, .appSurface, .platform, .provider: true
        case .appVersion, .environment, .permissionStatus, .locale, .timezone, .lastSeenAt, .revokedAt: false
        }
    }
}
