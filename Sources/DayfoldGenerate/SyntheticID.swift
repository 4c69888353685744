/// A synthetic UUID (version 4 layout), derived from a namespace and up to
/// three numbers, so the same entity gets the same id wherever it is written
/// (an instance row, its events, a re-export) without keeping any table.
struct SyntheticID: Sendable, Equatable {
    var high: UInt64
    var low: UInt64

    /// What an id names; each namespace has its own id space.
    enum Namespace: UInt64, Sendable {
        case relationship = 1
        case clientUser, coachUser, workspace, device
        case instance, event, valueEntry, infoCard, workoutLog, assignment, programDay
        case mealPlan, checkInForm, habit, supplement, measurement, reminder, breathwork
        case journalEntry, recipe, operation, unknownTask, unknownRelationship
        case pushInstallation, pushIntent, pushDelivery, pushReceipt
    }

    init(_ namespace: Namespace, seed: UInt64, _ a: Int, _ b: Int = 0, _ c: Int = 0) {
        let base = SplitMix64.hash(
            seed, namespace.rawValue, UInt64(truncatingIfNeeded: a), UInt64(truncatingIfNeeded: b))
        let mixed = SplitMix64.hash(base, UInt64(truncatingIfNeeded: c), namespace.rawValue)
        // Version 4 and RFC 4122 variant bits, as real exports carry.
        high = (mixed & 0xFFFF_FFFF_FFFF_0FFF) | 0x0000_0000_0000_4000
        low = (SplitMix64.finalize(mixed ^ base) & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000
    }
}
