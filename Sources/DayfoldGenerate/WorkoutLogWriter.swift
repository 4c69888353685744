import DayfoldCore

/// Writes `tasks/workout_logs`: the historical export from before task
/// instances existed. Each log tells the same story as the workout's outcome;
/// for the first days of the instances era a workout has both (the instance
/// wins).
struct WorkoutLogWriter {
    static let header = WorkoutLogColumn.header

    private var writer: DropPartWriter
    private let context: SyntheticDropContext

    init(root: String, zstd: Bool, maxPartBytes: Int64, context: SyntheticDropContext) throws {
        self.context = context
        writer = try DropPartWriter(
            root: root, folder: "tasks/workout_logs", baseName: "workout_logs", header: Self.header, zstd: zstd,
            maxPartBytes: maxPartBytes)
    }

    mutating func finish() throws -> [DropPartWriter.Part] { try writer.finish(firstNumber: 0) }

    mutating func write(
        client: SyntheticClient, day: Int, zone: Int, task: SyntheticTask, outcome: SyntheticOutcome,
        rng: inout SplitMix64
    ) throws {
        let words = SyntheticVocabulary.self
        let status: [UInt8]
        var startedAt: SyntheticInstant? = outcome.startedAt
        var completedAt: SyntheticInstant?
        var updatedAt: SyntheticInstant
        switch outcome.kind {
        case .completed, .completedLate:
            status = words.completed
            completedAt = outcome.doneAt
            updatedAt = outcome.doneAt.adding(seconds: 8 * 3600)
        case .skipped:
            status = words.skipped
            updatedAt = outcome.doneAt.adding(seconds: 8 * 3600)
        case .missed where rng.chance(0.3):
            // Started, never finished.
            status = words.inProgress
            updatedAt = outcome.startedAt.adding(seconds: 600)
        default:
            return
        }
        let hasTimestamps = !rng.chance(0.05)
        if !hasTimestamps { startedAt = nil }
        if let completed = completedAt, !context.isExported(completed) { completedAt = nil }
        if !context.isExported(updatedAt) { updatedAt = outcome.startedAt }
        writer.row.put(SyntheticID(.workoutLog, seed: context.seed, client.index, day))
        writer.row.put(client.relationship)
        writer.row.put(task.keyID)
        writer.row.put(task.sourceID)
        writer.row.putDate(day)
        writer.row.put(status)
        writer.row.put(startedAt, .isoOffset)
        writer.row.put(hasTimestamps ? completedAt : nil, .appleHealth)
        if hasTimestamps { writer.row.instant(updatedAt, .postgresUTC) }
        try writer.endRow()
    }
}
