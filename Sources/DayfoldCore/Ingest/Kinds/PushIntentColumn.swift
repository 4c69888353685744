/// push/intents: one notification the platform meant to send (SPEC §11.1).
/// A state export (same `id`: last wins), deduplicated by `idempotency_key`.
package enum PushIntentColumn: Int, ExportColumns {
    case id, recipientUserID, category, idempotencyKey, scheduledFor, status
    case relationshipID, workspaceID, sourceContext, sourceRecordID, sourceEventID, priority, previewMode
    case collapseKey, expiresAt, cancelledAt, createdAt

    package static let kind = "push_intents"

    package var name: String {
        switch self {
        case .id: "id"
        case .recipientUserID: "recipient_user_id"
        case .category: "category"
        case .idempotencyKey: "idempotency_key"
        case .scheduledFor: "scheduled_for"
        case .status: "status"
        case .relationshipID: "relationship_id"
        case .workspaceID: "workspace_id"
        case .sourceContext: "source_context"
        case .sourceRecordID: "source_record_id"
        case .sourceEventID: "source_event_id"
        case .priority: "priority"
        case .previewMode: "preview_mode"
        case .collapseKey: "collapse_key"
        case .expiresAt: "expires_at"
        case .cancelledAt: "cancelled_at"
        case .createdAt: "created_at"
        }
    }

    package var isRequired: Bool {
        switch self {
        case .id, .recipientUserID, .category, .idempotencyKey, .scheduledFor, .status: true
        default: false
        }
    }
}
