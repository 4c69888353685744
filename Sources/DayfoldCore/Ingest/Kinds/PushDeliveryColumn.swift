/// push/deliveries: one attempt to hand an intent to a provider for one
/// installation (SPEC §11.1). A state export: same `id` → last wins, then
/// same (`intent_id`, `installation_id`) → last wins.
package enum PushDeliveryColumn: Int, ExportColumns {
    case id, intentID, installationID, provider, status
    case providerTicketID, attemptCount, nextRetryAt, lastErrorCode, sentAt, deliveredAt, failedAt

    package static let kind = "push_deliveries"

    package var name: String {
        switch self {
        case .id: "id"
        case .intentID: "intent_id"
        case .installationID: "installation_id"
        case .provider: "provider"
        case .status: "status"
        case .providerTicketID: "provider_ticket_id"
        case .attemptCount: "attempt_count"
        case .nextRetryAt: "next_retry_at"
        case .lastErrorCode: "last_error_code"
        case .sentAt: "sent_at"
        case .deliveredAt: "delivered_at"
        case .failedAt: "failed_at"
        }
    }

    package var isRequired: Bool {
        switch self {
        case .id, .intentID, .installationID, .provider, .status: true
        default: false
        }
    }
}
