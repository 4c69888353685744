/// The kept rows of a drop's push exports (SPEC §11.1), as the delivery
/// facts read them. Rows refer to each other by index (a delivery's intent
/// and installation, a receipt's delivery): every id was resolved once, at
/// ingest, after §11.1's dedup and mapping.
public struct PushExports: Sendable {
    public var installations: [PushInstallation] = []
    public var intents: [PushIntent] = []
    public var deliveries: [PushDelivery] = []
    public var receipts: [PushReceipt] = []
    /// Quiet hours per user, sorted by `effectiveFrom`.
    public var preferences: [String: [NotificationPreference]] = [:]

    public init() {}
}

public struct PushInstallation: Sendable {
    public var id: String
    public var userID: String
    public var appSurface: String
    public var platform: String
    public var provider: String
    public var appVersion: String?
    /// The installation's own `timezone` (SPEC §11.1: after the task
    /// instance's zone, before `default_timezone`).
    public var zone: ZoneID?
    public var lastSeenAt: Instant?
    /// nil also when it lies after T (not yet revoked at T).
    public var revokedAt: Instant?
}

public struct PushIntent: Sendable {
    public var id: String
    public var recipientUserID: String
    public var category: String
    public var status: PushIntentStatus
    public var scheduledFor: Instant
    /// The relationship's index, when `relationship_id` is given.
    public var relationship: Int?
    /// Whether `source_context` is `DAILY_EXECUTION` (a task reminder).
    public var remindsTask: Bool
    /// The accepted task `source_record_id` names (after §1.3's id mapping).
    public var task: Int?
}

public enum PushIntentStatus: String, Sendable {
    case scheduled = "SCHEDULED", ready = "READY", sent = "SENT", cancelled = "CANCELLED", expired = "EXPIRED"
    case suppressed = "SUPPRESSED"
}

public struct PushDelivery: Sendable {
    public var id: String
    public var intent: Int
    public var installation: Int
    public var provider: String
    public var status: PushDeliveryStatus
    public var attemptCount: Int64?
    public var lastErrorCode: String?
    public var sentAt: Instant?
    public var failedAt: Instant?
}

public enum PushDeliveryStatus: String, Sendable {
    case pending = "PENDING", sent = "SENT", delivered = "DELIVERED", failed = "FAILED"
    case transientFailed = "TRANSIENT_FAILED", throttled = "THROTTLED", invalidToken = "INVALID_TOKEN"
}

public struct PushReceipt: Sendable {
    public var id: String
    public var delivery: Int
    public var ok: Bool
    public var receivedAt: Instant
    public var errorCode: String?
}

/// Quiet hours in force from `effectiveFrom` on; either end nil means none.
public struct NotificationPreference: Sendable {
    public var effectiveFrom: Instant
    /// Seconds after local midnight.
    public var quietStart: Int32?
    public var quietEnd: Int32?
}
