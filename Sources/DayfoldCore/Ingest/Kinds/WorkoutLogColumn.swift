/// tasks/workout_logs: historical workout logs (SPEC §1.3).
package enum WorkoutLogColumn: Int, ExportColumns {
    case id, relationshipID, assignmentID, programDayID, localDate, status, startedAt, completedAt, updatedAt

    package static let kind = "workout_logs"

    package var name: String {
        switch self {
        case .id: "id"
        case .relationshipID: "relationship_id"
        case .assignmentID: "assignment_id"
        case .programDayID: "program_day_id"
        case .localDate: "local_date"
        case .status: "status"
        case .startedAt: "started_at"
        case .completedAt: "completed_at"
        case .updatedAt: "updated_at"
        }
    }

    package var isRequired: Bool {
        switch self {
        case .id, .relationshipID, .assignmentID, .programDayID, .localDate, .status: true
        case .startedAt, .completedAt, .updatedAt: false
        }
    }
}
