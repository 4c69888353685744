/// tasks/info_cards: informational cards, never scored (SPEC §1.3).
package enum InfoCardColumn: Int, ExportColumns {
    case id, relationshipID, localDate, cardKey

    package static let kind = "info_cards"

    package var name: String {
        switch self {
        case .id: "id"
        case .relationshipID: "relationship_id"
        case .localDate: "local_date"
        case .cardKey: "card_key"
        }
    }

    package var isRequired: Bool { true }
}
