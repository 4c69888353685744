/// tasks/status_events: status changes of a task (SPEC §1.3).
package enum StatusEventColumn: Int, ExportColumns {
    case id, dailyTaskInstanceID, relationshipID, deviceID, clientOperationID, toStatus, occurredAt, reason
    case fromStatus, note, actorUserID, metadata

    package static let kind = "status_events"

    /// The columns value entries have at the same positions (their instant
    /// is `recorded_at`): the shared row decisions read both kinds through these.
    static let sharedWithValueEntries: [(StatusEventColumn, ValueEntryColumn)] = [
        (.id, .id), (.dailyTaskInstanceID, .dailyTaskInstanceID), (.relationshipID, .relationshipID),
        (.deviceID, .deviceID), (.clientOperationID, .clientOperationID), (.occurredAt, .recordedAt),
    ]

    package var name: String {
        switch self {
        case .id: "id"
        case .dailyTaskInstanceID: "daily_task_instance_id"
        case .relationshipID: "relationship_id"
        case .deviceID: "device_id"
        case .clientOperationID: "client_operation_id"
        case .toStatus: "to_status"
        case .occurredAt: "occurred_at"
        case .reason: "reason"
        case .fromStatus: "from_status"
        case .note: "note"
        case .actorUserID: "actor_user_id"
        case .metadata: "metadata"
        }
    }

    package var isRequired: Bool {
        switch self {
        case .id, .dailyTaskInstanceID, .relationshipID, .toStatus, .occurredAt: true
        case .deviceID, .clientOperationID, .reason, .fromStatus, .note, .actorUserID, .metadata: false
        }
    }
}
