/// tasks/instances: the daily task projection (SPEC §1.3).
package enum InstanceColumn: Int, ExportColumns {
    case id, relationshipID, localDate, timezone, taskKind, sourceKey, status, actionSchema
    case startsAt, dueAt, generatedAt, completedAt, canceledAt, supersededAt
    case workspaceID, sourceContext, sourceType, sourceID, sourceRevision, sourceChildKey, priority, sortKey
    case snapshot, completionSummary

    package static let kind = "instances"

    /// The instants that are only checked (a bad one rejects the row).
    static let checkedInstants: [InstanceColumn] = [
        .startsAt, .dueAt, .generatedAt, .completedAt, .canceledAt, .supersededAt,
    ]

    package var name: String {
        switch self {
        case .id: "id"
        case .relationshipID: "relationship_id"
        case .localDate: "local_date"
        case .timezone: "timezone"
        case .taskKind: "task_kind"
        case .sourceKey: "source_key"
        case .status: "status"
        case .actionSchema: "action_schema"
        case .startsAt: "starts_at"
        case .dueAt: "due_at"
        case .generatedAt: "generated_at"
        case .completedAt: "completed_at"
        case .canceledAt: "canceled_at"
        case .supersededAt: "superseded_at"
        case .workspaceID: "workspace_id"
        case .sourceContext: "source_context"
        case .sourceType: "source_type"
        case .sourceID: "source_id"
        case .sourceRevision: "source_revision"
        case .sourceChildKey: "source_child_key"
        case .priority: "priority"
        case .sortKey: "sort_key"
        case .snapshot: "snapshot"
        case .completionSummary: "completion_summary"
        }
    }

    package var isRequired: Bool { rawValue <= InstanceColumn.status.rawValue }
}
