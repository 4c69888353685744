/// subjects/goals.csv: Progress targets (SPEC §1.2).
package enum GoalColumn: Int, ExportColumns {
    case userID, metric, target, provenance, effectiveOn

    package static let kind = "goals"

    package var name: String {
        switch self {
        case .userID: "user_id"
        case .metric: "metric"
        case .target: "target"
        case .provenance: "provenance"
        case .effectiveOn: "effective_on"
        }
    }

    package var isRequired: Bool { true }
}
