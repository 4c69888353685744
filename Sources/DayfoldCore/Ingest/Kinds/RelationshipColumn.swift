/// subjects/relationships.csv: coach–client relationships (SPEC §1.2).
package enum RelationshipColumn: Int, ExportColumns {
    case relationshipID, clientUserID, coachUserID, workspaceID, status, startedOn, endedOn

    package static let kind = "relationships"

    package var name: String {
        switch self {
        case .relationshipID: "relationship_id"
        case .clientUserID: "client_user_id"
        case .coachUserID: "coach_user_id"
        case .workspaceID: "workspace_id"
        case .status: "status"
        case .startedOn: "started_on"
        case .endedOn: "ended_on"
        }
    }

    package var isRequired: Bool {
        switch self {
        case .relationshipID, .clientUserID: true
        case .coachUserID, .workspaceID, .status, .startedOn, .endedOn: false
        }
    }
}
