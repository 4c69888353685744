import DayfoldCore

/// Writes `tasks/value_entries`: the glasses logged against a water habit
/// (an ACCUMULATE value task), with offline retries and a few rejected
/// entries.
struct ValueEntryWriter {
    /// The declared columns in the platform's export order.
    static let header = [
        ValueEntryColumn.id, .dailyTaskInstanceID, .relationshipID, .value, .recordedAt, .status, .deviceID,
        .clientOperationID,
    ].map(\.name).joined(separator: ",")

    private var writer: DropPartWriter
    private let context: SyntheticDropContext

    init(root: String, zstd: Bool, maxPartBytes: Int64, context: SyntheticDropContext) throws {
        self.context = context
        writer = try DropPartWriter(
            root: root, folder: "tasks/value_entries", baseName: "values", header: Self.header, zstd: zstd,
            maxPartBytes: maxPartBytes)
    }

    mutating func finish() throws -> [DropPartWriter.Part] { try writer.finish(firstNumber: 0) }

    mutating func write(
        taskID: SyntheticID, client: SyntheticClient, day: Int, zone: Int, outcome: SyntheticOutcome,
        rng: inout SplitMix64
    ) throws {
        var glassesLeft: Int
        switch outcome.kind {
        case .completed, .completedLate: glassesLeft = 8 + rng.below(3)
        case .missed where rng.chance(0.4): glassesLeft = 1 + rng.below(3)
        default: return
        }
        var entryIndex = 0
        while glassesLeft > 0 {
            let glasses = min(glassesLeft, 1 + rng.below(3))
            glassesLeft -= glasses
            let minute = min(480 + entryIndex * 110 + rng.below(60), 1420)
            let at = context.zones.instant(zone: zone, day: day, minuteOfDay: minute)
            let statusRoll = rng.below(100)
            let style: InstantStyle = rng.chance(0.002) ? .missingOffset : (rng.chance(0.7) ? .isoOffset : .isoUTC)
            let operation = SyntheticID(.operation, seed: context.seed, client.index, day, 1000 + entryIndex)
            if context.isExported(at) {
                let id = SyntheticID(.valueEntry, seed: context.seed, client.index, day, entryIndex)
                try append(id, taskID, client, glasses, at, style, statusRoll, operation)
                if rng.chance(0.02) {
                    let retryID = SyntheticID(.valueEntry, seed: context.seed, client.index, day, 100 + entryIndex)
                    try append(
                        retryID, taskID, client, glasses, at.adding(seconds: 3 + rng.below(60)), style, statusRoll,
                        operation)
                }
            }
            entryIndex += 1
        }
    }

    private mutating func append(
        _ id: SyntheticID, _ taskID: SyntheticID, _ client: SyntheticClient, _ glasses: Int, _ at: SyntheticInstant,
        _ style: InstantStyle, _ statusRoll: Int, _ operation: SyntheticID
    ) throws {
        writer.row.put(id)
        writer.row.put(taskID)
        writer.row.put(client.relationship)
        writer.row.putInteger(glasses)
        writer.row.put(at, style)
        if statusRoll < 1 {
            writer.row.put(SyntheticVocabulary.rejected)
        } else if statusRoll < 40 {
            writer.row.putEmpty()
        } else {
            writer.row.put(SyntheticVocabulary.accepted)
        }
        writer.row.put(client.deviceName)
        writer.row.uuid(operation)
        try writer.endRow()
    }
}
