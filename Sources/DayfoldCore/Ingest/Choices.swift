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
    // SPEC §11.1's enumerated push columns, in their enums' case order
    // (`CSVRow.choiceIndex` gives the position).
    static let appSurface = Choices(PushAppSurface.allCases.map(\.rawValue))
    static let platform = Choices(PushPlatform.allCases.map(\.rawValue))
    static let pushProvider = Choices(PushProvider.allCases.map(\.rawValue))
    static let pushCategory = Choices(PushCategory.allCases.map(\.rawValue))
    /// `CANCELED` (one L) is accepted and read as `CANCELLED` (`intentStatusOfChoice`).
    static let intentStatus = Choices(["SCHEDULED", "READY", "SENT", "CANCELLED", "CANCELED", "EXPIRED", "SUPPRESSED"])
    static let intentStatusOfChoice: [PushIntentStatus] = [
        .scheduled, .ready, .sent, .cancelled, .cancelled, .expired, .suppressed,
    ]
    static let deliveryStatus = Choices(PushDeliveryStatus.allCases.map(\.rawValue))
    static let receiptStatus = Choices(["OK", "ERROR"])
}
