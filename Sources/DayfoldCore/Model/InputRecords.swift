/// Status of a daily task or a status event (the `TaskStatus` of the design).
public enum TaskStatus: String, Sendable, BitwiseCopyable, CaseIterable {
    case pending = "PENDING"
    case inProgress = "IN_PROGRESS"
    case completed = "COMPLETED"
    case skipped = "SKIPPED"
    case missed = "MISSED"
    case canceled = "CANCELED"
    case superseded = "SUPERSEDED"

    /// The names as words a field is matched against (see `named(_:field:)`).
    static let packedNames = PackedNames(allCases.map { ($0.rawValue, $0) })
}

public struct Relationship: Sendable, Equatable {
    public var id: String
    public var clientUserID: String
    public var coachUserID: String?
    public var workspaceID: String?
    /// The status as written in relationships.csv; nil when the field is
    /// empty (outputs carry it as NULL, SPEC §10).
    public var status: String?
    public var startedOn: LocalDate?
    public var endedOn: LocalDate?

    /// The status the rules go by: an empty status reads as ACTIVE (SPEC §10).
    public var effectiveStatus: String { status ?? "ACTIVE" }
}

/// A user's time-zone history row.
public struct TimezoneRow: Sendable, BitwiseCopyable {
    public var zone: ZoneID
    public var effectiveFrom: Instant
    public var order: Int
}

public struct Goal: Sendable {
    public var userID: String
    public var metric: String
    public var target: Double
    public var confirmed: Bool
    public var effectiveOn: LocalDate
    public var order: Int
}

/// A task after dedup: an instance, or a WORKOUT task made from a historical log.
/// An accepted task. Plain data with no String in it: millions are copied,
/// sorted through and freed, and a String would cost an allocation and
/// reference counting on each.
public struct DailyTask: Sendable, BitwiseCopyable {
    /// The task's id: its index in `IngestedDrop.taskIDs`.
    public var id: Int32
    public var relationship: Int
    public var localDate: LocalDate
    public var zone: ZoneID
    /// The task's kind: its index in `IngestedDrop.taskKinds`.
    public var kind: Int32
    public var status: TaskStatus
    public var valueTask: Bool
    public var informational: Bool
    public var fromLog: Bool
    public var order: Int
}

public struct StatusEvent: Sendable, BitwiseCopyable {
    /// The event's id: its index in `IngestedDrop.eventIDs`.
    public var id: Int32
    public var task: Int
    public var toStatus: TaskStatus
    public var occurredAt: Instant
    /// The UTC offset the instant was written with (time-zone fallback).
    public var offsetSeconds: Int32
    /// The event's reason: its index in `IngestedDrop.eventReasons`. An
    /// index, not a String, so that events and the outcomes that carry it
    /// copy without a retain each (a series step copies a million).
    public var reason: Int32?
}

public struct ValueEntry: Sendable, BitwiseCopyable {
    public var task: Int
    public var recordedAt: Instant
    public var offsetSeconds: Int32
    public var accepted: Bool
}

public struct InfoCard: Sendable, BitwiseCopyable {
    public var relationship: Int
    public var localDate: LocalDate
}

/// The winning, not deleted revision of a journal entry.
public struct JournalEntry: Sendable, BitwiseCopyable {
    /// The user's index among the drop's journal users (`IngestedDrop.journalUsers`,
    /// one per distinct user id, from 0): grouping entries by user needs no
    /// String hashing, and an entry holds no reference, so the copies an
    /// as-of series makes of every entry at every step retain nothing.
    public var userIndex: Int32
    public var cookedAt: ParsedInstant
    public var portion: Double
    /// Per serving; nil when the entry does not say (contributes nothing).
    public var energyKcal: Double?
    public var proteinG: Double?
    public var carbsG: Double?
    public var fatG: Double?

    /// energy_kcal, protein_g, carbs_g, fat_g, in report order.
    func nutrient(_ position: Int) -> Double? {
        switch position {
        case 0: return energyKcal
        case 1: return proteinG
        case 2: return carbsG
        default: return fatG
        }
    }
}
