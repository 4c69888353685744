/// The values a `choice` column allows. Built once (a static), not per row.
struct Choices: Sendable {
    let allowed: Set<String>
    let names: [(bytes: [UInt8], text: String)]

    init(_ values: [String]) {
        allowed = Set(values)
        names = values.map { (Array($0.utf8), $0) }
    }

    static let valueEntryStatus = Choices(["ACCEPTED", "REJECTED"])
    static let workoutLogStatus = Choices(["IN_PROGRESS", "COMPLETED", "SKIPPED"])
    static let relationshipStatus = Choices(["ACTIVE", "PAUSED", "ENDED"])
    static let goalProvenance = Choices(["CONFIRMED", "SUGGESTED"])
    static let preferenceSource = Choices(["LOCAL_JOURNAL", "APPLE_HEALTH"])
}
