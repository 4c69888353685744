/// One task of a client's weekly plan on one local day, before its outcome
/// is drawn.
struct SyntheticTask: Sendable {
    /// Position in the day's plan (0 workout, 1–3 meals, 4 check-in, 5 water,
    /// 6 supplement, 7 weigh-in, 8 reminder, 9 breathwork); part of every id.
    var slot: Int
    var kind: SyntheticVocabulary.TaskKind
    /// Nominal local time, minutes after midnight.
    var minute: Int
    /// The plan object the task comes from (`source_id`).
    var sourceID: SyntheticID
    /// The id in the idempotency key: the program assignment for workouts,
    /// else the source.
    var keyID: SyntheticID
    var childKey: [UInt8]
    var isInformational = false
    var isValueTask = false
    var isWorkout = false
    var hasDueTime = false
    var priority: Int
    /// How much likelier than the client's base rate this kind gets done.
    var adherenceFactor = 1.0

    static let slotCount = 10

    /// The task in `slot` of `client`'s plan on `day`, or nil when the plan
    /// has nothing there that day.
    static func planned(slot: Int, client: SyntheticClient, day: Int, weekday: Int, seed: UInt64) -> SyntheticTask? {
        let onDay = { (mask: Int) in mask & (1 << weekday) != 0 }
        let vocabulary = SyntheticVocabulary.self
        func source(_ namespace: SyntheticID.Namespace) -> SyntheticID {
            SyntheticID(namespace, seed: seed, client.index)
        }
        switch slot {
        case 0 where onDay(client.workoutDays):
            let programDay = SyntheticID(.programDay, seed: seed, client.index, day)
            var task = SyntheticTask(
                slot: slot, kind: vocabulary.workout, minute: client.workoutMinute, sourceID: programDay,
                keyID: source(.assignment), childKey: [], priority: 2)
            task.isWorkout = true
            task.adherenceFactor = 0.9
            return task
        case 1...3 where client.mealSlots.contains(slot - 1):
            var task = SyntheticTask(
                slot: slot, kind: vocabulary.meals[slot - 1], minute: [450, 750, 1140][slot - 1],
                sourceID: source(.mealPlan),
                keyID: source(.mealPlan), childKey: vocabulary.mealSlots[slot - 1], priority: 3)
            task.adherenceFactor = 1.05
            return task
        case 4 where onDay(client.checkInDays):
            var task = SyntheticTask(
                slot: slot, kind: vocabulary.checkIn, minute: 1200, sourceID: source(.checkInForm),
                keyID: source(.checkInForm), childKey: [], priority: 1)
            task.hasDueTime = true
            task.adherenceFactor = 0.9
            return task
        case 5 where client.hasWaterHabit:
            var task = SyntheticTask(
                slot: slot, kind: vocabulary.water, minute: 540, sourceID: source(.habit), keyID: source(.habit),
                childKey: [], priority: 4)
            task.isValueTask = true
            return task
        case 6 where client.hasSupplement:
            return SyntheticTask(
                slot: slot, kind: vocabulary.supplement, minute: 510, sourceID: source(.supplement),
                keyID: source(.supplement), childKey: [], priority: 5)
        case 7 where onDay(client.weighInDays):
            return SyntheticTask(
                slot: slot, kind: vocabulary.measurement, minute: 430, sourceID: source(.measurement),
                keyID: source(.measurement), childKey: [], priority: 5)
        case 8 where onDay(client.reminderDays):
            var task = SyntheticTask(
                slot: slot, kind: vocabulary.reminder, minute: 480, sourceID: source(.reminder),
                keyID: source(.reminder),
                childKey: [], priority: 0)
            task.isInformational = true
            return task
        case 9 where onDay(client.breathworkDays):
            return SyntheticTask(
                slot: slot, kind: vocabulary.breathwork, minute: 1260, sourceID: source(.breathwork),
                keyID: source(.breathwork), childKey: [], priority: 6)
        default:
            return nil
        }
    }
}
