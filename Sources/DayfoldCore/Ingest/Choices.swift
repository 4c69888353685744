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
    static let appSurface = Choices(["COACH_MOBILE", "CLIENT_MOBILE"])
    static let platform = Choices(["IOS", "ANDROID"])
    static let pushProvider = Choices(["EXPO", "APNS", "FCM"])
    static let pushCategory = Choices([
        "MESSAGE", "VOICE_NOTE", "ATTACHMENT", "FORM_DUE", "WORKOUT_DUE", "MEAL_DUE", "CHECK_IN_DUE", "RISK_FLAG",
        "COACH_TASK", "SYSTEM",
    ])
    /// `CANCELED` (one L) is accepted and read as `CANCELLED`.
    static let intentStatus = Choices(["SCHEDULED", "READY", "SENT", "CANCELLED", "CANCELED", "EXPIRED", "SUPPRESSED"])
    static let deliveryStatus = Choices([
        "PENDING", "SENT", "DELIVERED", "FAILED", "TRANSIENT_FAILED", "THROTTLED", "INVALID_TOKEN",
    ])
    static let receiptStatus = Choices(["OK", "ERROR"])
}
