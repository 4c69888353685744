/// The kept rows of a drop's push exports (SPEC §11.1), as the delivery
/// facts read them: columns of small values. Rows refer to each other by
/// index (a delivery's intent and installation, a receipt's delivery), ids
/// are interned bytes (`users`, `intentIDs`, …), enumerated values are
/// enums: every id was resolved once, at ingest, after §11.1's dedup and
/// mapping, and no row holds a String of its own.
public struct PushExports: Sendable {
    /// Users named by intents and installations (`PushIntent.recipient`, `PushInstallation.user`).
    var users = ByteKeyTable()
    public var installations: [PushInstallation] = []
    public var intents: [PushIntent] = []
    /// The kept intents' ids (`PushIntent.id` indexes them).
    var intentIDs = ByteStrings()
    public var deliveries: [PushDelivery] = []
    /// The kept deliveries' ids (`PushDelivery.id` indexes them).
    var deliveryIDs = ByteStrings()
    public var receipts: [PushReceipt] = []
    /// The accepted receipts' ids (`PushReceipt.id`): they break ties of `received_at`.
    var receiptIDs = ByteStrings()
    /// Quiet hours per user (`users` index), sorted by `effectiveFrom`.
    var preferences: [[NotificationPreference]] = []

    public init() {}

    /// A user's id as text (for outputs and zone lookups, once per user).
    func user(_ index: Int32) -> String { String(decoding: users.key(index), as: UTF8.self) }
}

public enum PushProvider: String, Sendable, BitwiseCopyable, CaseIterable, Codable {
    case expo = "EXPO"
    case apns = "APNS"
    case fcm = "FCM"
}

public enum PushPlatform: String, Sendable, BitwiseCopyable, CaseIterable, Codable {
    case ios = "IOS"
    case android = "ANDROID"
}

public enum PushAppSurface: String, Sendable, BitwiseCopyable, CaseIterable, Codable {
    case coachMobile = "COACH_MOBILE"
    case clientMobile = "CLIENT_MOBILE"
}

public enum PushCategory: String, Sendable, BitwiseCopyable, CaseIterable, Codable {
    case message = "MESSAGE"
    case voiceNote = "VOICE_NOTE"
    case attachment = "ATTACHMENT"
    case formDue = "FORM_DUE"
    case workoutDue = "WORKOUT_DUE"
    case mealDue = "MEAL_DUE"
    case checkInDue = "CHECK_IN_DUE"
    case riskFlag = "RISK_FLAG"
    case coachTask = "COACH_TASK"
    case system = "SYSTEM"
}

public struct PushInstallation: Sendable {
    public var id: String
    var user: Int32
    public var appSurface: PushAppSurface
    public var platform: PushPlatform
    public var provider: PushProvider
    public var appVersion: String?
    /// The installation's own `timezone` (SPEC §11.1: after the task
    /// instance's zone, before `default_timezone`), in the drop's catalog.
    public var zone: ZoneID?
    /// Its name: push files are read on a thread of their own, whose copy of
    /// the zone catalog learns names the drop's does not; the ids are made
    /// again in the drop's catalog when the push rows join it.
    var zoneName: String?
    public var lastSeenAt: Instant?
    /// nil also when it lies after T (not yet revoked at T).
    public var revokedAt: Instant?
}

public struct PushIntent: Sendable, BitwiseCopyable {
    var id: Int32
    var recipient: Int32
    public var category: PushCategory
    public var status: PushIntentStatus
    public var scheduledFor: Instant
    /// The relationship's index, when `relationship_id` is given.
    public var relationship: Int?
    /// Whether `source_context` is `DAILY_EXECUTION` (a task reminder).
    public var remindsTask: Bool
    /// The accepted task `source_record_id` names (after §1.3's id mapping).
    public var task: Int?
}

/// `CANCELED` (one L) is read as `cancelled`.
public enum PushIntentStatus: String, Sendable, BitwiseCopyable {
    case scheduled = "SCHEDULED"
    case ready = "READY"
    case sent = "SENT"
    case cancelled = "CANCELLED"
    case expired = "EXPIRED"
    case suppressed = "SUPPRESSED"
}

public struct PushDelivery: Sendable, BitwiseCopyable {
    var id: Int32
    public var intent: Int
    public var installation: Int
    public var provider: PushProvider
    public var status: PushDeliveryStatus
    public var attemptCount: Int64?
    /// The class of `last_error_code` when it is one of SPEC §11.2's codes
    /// (nil for NULL or any other code: the status rules tell those apart).
    public var knownErrorClass: PushErrorClass?
    public var sentAt: Instant?
    public var failedAt: Instant?
}

public enum PushDeliveryStatus: String, Sendable, BitwiseCopyable, CaseIterable {
    case pending = "PENDING"
    case sent = "SENT"
    case delivered = "DELIVERED"
    case failed = "FAILED"
    case transientFailed = "TRANSIENT_FAILED"
    case throttled = "THROTTLED"
    case invalidToken = "INVALID_TOKEN"
}

public struct PushReceipt: Sendable, BitwiseCopyable {
    var id: Int32
    public var delivery: Int
    public var ok: Bool
    public var receivedAt: Instant
    /// The class of `provider_error_code` (`other` when NULL or unknown).
    public var errorClass: PushErrorClass
}

/// Quiet hours in force from `effectiveFrom` on; either end nil means none.
public struct NotificationPreference: Sendable, BitwiseCopyable {
    public var effectiveFrom: Instant
    /// Seconds after local midnight.
    public var quietStart: Int32?
    public var quietEnd: Int32?
}
