/// journal/: meal entries with revisions (SPEC §1.4), as CSV or SQLite.
package enum JournalColumn: Int, ExportColumns {
    case entryID, userID, cookedAt, revision, portion, energyKcal, proteinG, carbsG, fatG, deleted, recipeID
    case title

    package static let kind = "journal"

    package var name: String {
        switch self {
        case .entryID: "entry_id"
        case .userID: "user_id"
        case .cookedAt: "cooked_at"
        case .revision: "revision"
        case .portion: "portion"
        case .energyKcal: "energy_kcal"
        case .proteinG: "protein_g"
        case .carbsG: "carbs_g"
        case .fatG: "fat_g"
        case .deleted: "deleted"
        case .recipeID: "recipe_id"
        case .title: "title"
        }
    }

    package var isRequired: Bool {
        switch self {
        case .entryID, .userID, .cookedAt, .revision: true
        case .portion, .energyKcal, .proteinG, .carbsG, .fatG, .deleted, .recipeID, .title: false
        }
    }
}
