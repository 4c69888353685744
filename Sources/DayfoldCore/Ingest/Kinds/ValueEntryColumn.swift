/// tasks/value_entries: values captured for habit tasks (SPEC §1.3).
package enum ValueEntryColumn: Int, ExportColumns {
    case id, dailyTaskInstanceID, relationshipID, deviceID, clientOperationID, value, recordedAt, status

    package static let kind = "value_entries"

    package var name: String {
        switch self {
        case .id: "id"
        case .dailyTaskInstanceID: "daily_task_instance_id"
        case .relationshipID: "relationship_id"
        case .deviceID: "device_id"
        case .clientOperationID: "client_operation_id"
        case .value: "value"
        case .recordedAt: "recorded_at"
        case .status: "status"
        }
    }

    package var isRequired: Bool {
        switch self {
        case .id, .dailyTaskInstanceID, .relationshipID, .value, .recordedAt: true
        case .deviceID, .clientOperationID, .status: false
        }
    }
}
