/// One `daily_task_status_events` row, with the spelling choices (instant
/// style, metadata) and the rare deliberate defect drawn once, so the row
/// and its re-export are identical.
struct StatusEventRow: Sendable {
    enum Actor: Sendable, Equatable { case client, coach, system }
    /// What is deliberately wrong with the row (about 0.6 % of client events; ~0.2 % of all rows of the drop).
    enum Defect: Sendable, Equatable { case none, missingOffset, unknownStatus, unknownTask }

    var id: SyntheticID
    var taskID: SyntheticID
    var from: [UInt8]
    var to: [UInt8]
    var actor: Actor
    var at: SyntheticInstant
    var operation: SyntheticID?
    var reason: [UInt8] = []
    var note: [UInt8] = []
    var style: InstantStyle = .postgresUTC
    var hasMetadata = false
    var defect: Defect = .none

    init(
        id: SyntheticID, taskID: SyntheticID, from: [UInt8], to: [UInt8], actor: Actor, at: SyntheticInstant,
        operation: SyntheticID?
    ) {
        self.id = id
        self.taskID = taskID
        self.from = from
        self.to = to
        self.actor = actor
        self.at = at
        self.operation = operation
    }

    /// Draws how the row is spelled: phones write local offsets in several
    /// styles and sometimes metadata; the server writes PostgreSQL UTC text.
    mutating func decorate(rng: inout SplitMix64, seed: UInt64, client: SyntheticClient) {
        guard actor == .client else {
            style = .postgresUTC
            return
        }
        switch rng.below(100) {
        case ..<50: style = .isoOffset
        case ..<65: style = .isoOffsetMillis
        case ..<85: style = .postgresUTC
        case ..<95: style = .appleHealth
        default: style = .isoUTC
        }
        hasMetadata = rng.chance(0.3)
        let defectRoll = rng.unit()
        if defectRoll < 0.003 {
            defect = .missingOffset
            style = .missingOffset
        } else if defectRoll < 0.0045 {
            defect = .unknownStatus
            to = SyntheticVocabulary.unknownStatus
        } else if defectRoll < 0.006 {
            defect = .unknownTask
            taskID = SyntheticID(.unknownTask, seed: seed, client.index, Int(truncatingIfNeeded: id.low))
        }
    }

    func append(to writer: inout DropPartWriter, client: SyntheticClient, zoneName: [UInt8]) throws {
        writer.row.put(id)
        writer.row.put(taskID)
        writer.row.put(client.relationship)
        writer.row.put(from)
        writer.row.put(to)
        writer.row.put(reason)
        writer.row.put(note)
        switch actor {
        case .client:
            writer.row.put(client.user)
            writer.row.put(client.deviceName)
        case .coach:
            writer.row.put(client.coach)
            writer.row.putEmpty()
        case .system:
            writer.row.putEmpty()
            writer.row.putEmpty()
        }
        if let operation { writer.row.uuid(operation) }
        writer.row.comma()
        if hasMetadata {
            writer.row.append(SyntheticVocabulary.metadataPrefix)
            writer.row.append(zoneName)
            writer.row.append(SyntheticVocabulary.metadataSuffix)
        } else if actor == .system && to == SyntheticVocabulary.missed {
            writer.row.append(SyntheticVocabulary.missedJobMetadata)
        }
        writer.row.comma()
        writer.row.instant(at, style)
        try writer.endRow()
    }
}
