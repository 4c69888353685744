/// What happened to one task, with the instants of each step; drawn before
/// any row is written so that the instance row, its events, its value
/// entries and a workout log all tell the same story.
struct SyntheticOutcome: Sendable {
    enum Kind: Sendable, Equatable {
        case completed
        /// Completed after the deadline (the nightly job had marked it MISSED).
        case completedLate
        case skipped
        case missed
        case canceled
        case superseded
        /// An informational reminder: nothing to do.
        case informational
    }

    var kind: Kind
    /// When the client started (workouts: the IN_PROGRESS event).
    var startedAt: SyntheticInstant
    /// The completing, skipping, canceling or superseding instant.
    var doneAt: SyntheticInstant
    /// The nightly job's MISSED event, when it wrote one.
    var missedAt: SyntheticInstant?
    var skipReason: [UInt8] = []
    var skipNote: [UInt8] = []

    static func draw(
        _ task: SyntheticTask, client: SyntheticClient, day: Int, zone: Int, quiet: Bool, weekend: Bool,
        zones: ZoneOffsetTable, rng: inout SplitMix64
    ) -> SyntheticOutcome {
        let minute = min(max(task.minute + rng.int(in: -30...90), 300), 1425)
        let startedAt = zones.instant(zone: zone, day: day, minuteOfDay: minute)
        // The nightly job runs after the deadline (local midnight + 2 days), past any DST switch.
        let nightlyJob = zones.instant(zone: zone, day: day, minuteOfDay: 2880 + 255 + rng.below(60))
        var outcome = SyntheticOutcome(kind: .missed, startedAt: startedAt, doneAt: startedAt)
        let roll = rng.unit()
        if task.isInformational {
            if roll < 0.02 {
                outcome.kind = .canceled
                outcome.doneAt = zones.instant(zone: zone, day: day, minuteOfDay: -540 + rng.below(300))
            } else {
                outcome.kind = .informational
            }
            return outcome
        }
        if roll < 0.008 {
            outcome.kind = .canceled
            outcome.doneAt = zones.instant(zone: zone, day: day, minuteOfDay: -540 + rng.below(300))
            return outcome
        }
        if roll < 0.014 {
            outcome.kind = .superseded
            outcome.doneAt = zones.instant(zone: zone, day: day, minuteOfDay: 300 + rng.below(100))
            return outcome
        }
        let rate = client.adherence * task.adherenceFactor * (weekend ? 0.85 : 1.0)
        let draw = rng.unit()
        if !quiet && draw < rate {
            if rng.chance(0.03) {
                outcome.kind = .completedLate
                outcome.missedAt = nightlyJob
                // 06:00–23:00 two days on: past the deadline, clear of the night's DST switch.
                outcome.doneAt = zones.instant(zone: zone, day: day, minuteOfDay: 2880 + 360 + rng.below(1020))
            } else {
                outcome.kind = .completed
                outcome.doneAt = task.isWorkout ? startedAt.adding(seconds: 60 * (45 + rng.below(31))) : startedAt
            }
        } else if !quiet && draw < rate + client.skipRate {
            outcome.kind = .skipped
            outcome.doneAt = zones.instant(zone: zone, day: day, minuteOfDay: max(300, minute - 30))
            var reasonRoll = rng.below(100)
            for entry in SyntheticVocabulary.skipReasons {
                if reasonRoll < entry.weight {
                    outcome.skipReason = entry.reason
                    break
                }
                reasonRoll -= entry.weight
            }
            if rng.chance(0.2) {
                outcome.skipNote = SyntheticVocabulary.skipNotes[rng.below(SyntheticVocabulary.skipNotes.count)]
            }
        } else {
            outcome.kind = .missed
            if rng.chance(0.6) { outcome.missedAt = nightlyJob }
        }
        return outcome
    }

    /// The instance `status` as of `exportInstant`, and the matching
    /// `completed_at` / `canceled_at` / `superseded_at`.
    func exportedStatus(context: SyntheticDropContext, isWorkout: Bool) -> (
        status: [UInt8], completedAt: SyntheticInstant?, canceledAt: SyntheticInstant?, supersededAt: SyntheticInstant?
    ) {
        let words = SyntheticVocabulary.self
        let doneExported = context.isExported(doneAt)
        switch kind {
        case .canceled where doneExported: return (words.canceled, nil, doneAt, nil)
        case .superseded where doneExported: return (words.superseded, nil, nil, doneAt)
        case .completed, .completedLate:
            if doneExported { return (words.completed, doneAt, nil, nil) }
            if let missedAt, context.isExported(missedAt) { return (words.missed, nil, nil, nil) }
            if isWorkout && context.isExported(startedAt) { return (words.inProgress, nil, nil, nil) }
            return (words.pending, nil, nil, nil)
        case .skipped where doneExported: return (words.skipped, nil, nil, nil)
        case .missed:
            if let missedAt, context.isExported(missedAt) { return (words.missed, nil, nil, nil) }
            return (words.pending, nil, nil, nil)
        default:
            return (words.pending, nil, nil, nil)
        }
    }
}
