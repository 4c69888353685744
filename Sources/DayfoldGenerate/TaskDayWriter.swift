import DayfoldCore

/// Writes the `tasks/` kinds for one client on one local day: instances
/// (and their later re-export), status events (with offline retries and a
/// re-export), value entries, info cards and, before the instances era,
/// historical workout logs.
struct TaskDayWriter {
    /// The declared columns in the platform's export order (no `starts_at`
    /// or `completion_summary`: the platform leaves them out).
    static let instanceHeader = [
        InstanceColumn.id, .workspaceID, .relationshipID, .localDate, .timezone, .taskKind, .sourceContext, .sourceType,
        .sourceID, .sourceRevision, .sourceChildKey, .sourceKey, .status, .priority, .sortKey, .dueAt, .snapshot,
        .actionSchema, .generatedAt, .completedAt, .canceledAt, .supersededAt,
    ].map(\.name).joined(separator: ",")
    /// The declared columns in the platform's export order.
    static let eventHeader = [
        StatusEventColumn.id, .dailyTaskInstanceID, .relationshipID, .fromStatus, .toStatus, .reason, .note,
        .actorUserID, .deviceID, .clientOperationID, .metadata, .occurredAt,
    ].map(\.name).joined(separator: ",")

    var instances: DropPartWriter
    var instancesReexport: DropPartWriter
    var events: DropPartWriter
    var eventsReexport: DropPartWriter
    var values: ValueEntryWriter
    var cards: InfoCardWriter
    var workoutLogs: WorkoutLogWriter
    /// The push exports, when the drop has them (reminders follow the tasks).
    var push: PushDayWriter?
    let context: SyntheticDropContext

    init(root: String, zstd: Bool, maxPartBytes: Int64, context: SyntheticDropContext) throws {
        self.context = context
        instances = try DropPartWriter(
            root: root, folder: "tasks/instances", baseName: "instances", header: Self.instanceHeader, zstd: zstd,
            maxPartBytes: maxPartBytes)
        instancesReexport = try DropPartWriter(
            root: root, folder: "tasks/instances", baseName: "instances", label: "reexport",
            header: Self.instanceHeader,
            zstd: zstd, maxPartBytes: maxPartBytes, keepsEmpty: false)
        events = try DropPartWriter(
            root: root, folder: "tasks/status_events", baseName: "events", header: Self.eventHeader, zstd: zstd,
            maxPartBytes: maxPartBytes)
        eventsReexport = try DropPartWriter(
            root: root, folder: "tasks/status_events", baseName: "events", label: "reexport", header: Self.eventHeader,
            zstd: zstd, maxPartBytes: maxPartBytes, keepsEmpty: false)
        values = try ValueEntryWriter(root: root, zstd: zstd, maxPartBytes: maxPartBytes, context: context)
        cards = try InfoCardWriter(root: root, zstd: zstd, maxPartBytes: maxPartBytes, context: context)
        workoutLogs = try WorkoutLogWriter(root: root, zstd: zstd, maxPartBytes: maxPartBytes, context: context)
    }

    /// Finishes every file; re-exports are numbered after their main parts.
    mutating func finish() throws -> [DropPartWriter.Part] {
        let mainInstances = try instances.finish(firstNumber: 0)
        let laterInstances = try instancesReexport.finish(firstNumber: mainInstances.count)
        let mainEvents = try events.finish(firstNumber: 0)
        let laterEvents = try eventsReexport.finish(firstNumber: mainEvents.count)
        return try mainInstances + laterInstances + mainEvents + laterEvents + values.finish() + cards.finish()
            + workoutLogs.finish() + (push?.finish() ?? [])
    }

    mutating func write(client: SyntheticClient, day: Int, quiet: Bool) throws {
        var rng = SplitMix64(seed: context.seed, stream: 0x7A5C, client.index, day)
        let zone = client.zone(onDay: day)
        let weekday = CivilCalendar.weekday(ofDay: day)
        for slot in 0..<SyntheticTask.slotCount {
            guard
                let task = SyntheticTask.planned(
                    slot: slot, client: client, day: day, weekday: weekday, seed: context.seed)
            else { continue }
            let outcome = SyntheticOutcome.draw(
                task, client: client, day: day, zone: zone, quiet: quiet, weekend: weekday == 0 || weekday == 6,
                zones: context.zones, rng: &rng)
            let taskID = SyntheticID(.instance, seed: context.seed, client.index, day, slot)
            if task.isWorkout && day < context.instancesEraStart + 3 {
                try workoutLogs.write(client: client, day: day, zone: zone, task: task, outcome: outcome, rng: &rng)
                if day < context.instancesEraStart { continue }
            }
            try writeInstance(taskID, task, outcome, client: client, day: day, zone: zone, rng: &rng)
            try writeEvents(taskID, task, outcome, client: client, day: day, zone: zone, rng: &rng)
            if task.isValueTask {
                try values.write(taskID: taskID, client: client, day: day, zone: zone, outcome: outcome, rng: &rng)
            }
            try push?.remind(
                taskID: taskID, task: task, slot: slot, outcome: outcome, client: client, day: day, zone: zone)
        }
        try push?.messages(client: client, day: day, zone: zone)
        try cards.write(client: client, day: day, zone: zone, rng: &rng)
    }

    private mutating func writeInstance(
        _ taskID: SyntheticID, _ task: SyntheticTask, _ outcome: SyntheticOutcome, client: SyntheticClient, day: Int,
        zone: Int, rng: inout SplitMix64
    ) throws {
        let settled = outcome.exportedStatus(context: context, isWorkout: task.isWorkout)
        let sortKey = task.priority * 1000 + rng.below(1000)
        let row = InstanceRow(
            id: taskID, task: task, client: client, day: day, zone: zone, sortKey: sortKey, status: settled.status,
            completedAt: settled.completedAt, canceledAt: settled.canceledAt, supersededAt: settled.supersededAt)
        if context.settlesInReexport.contains(day) {
            // The nightly export saw these days still pending; the re-export settles them.
            var early = row
            early.status = SyntheticVocabulary.pending
            early.completedAt = nil
            try Self.append(early, context: context, to: &instances)
            try Self.append(row, context: context, to: &instancesReexport)
        } else {
            try Self.append(row, context: context, to: &instances)
            if rng.chance(0.002) { try Self.append(row, context: context, to: &instancesReexport) }
        }
        if rng.chance(0.0005) {
            // Materialized twice under two ids: same idempotency key, the later row wins.
            var twin = row
            twin.id = SyntheticID(.instance, seed: context.seed, client.index, day, task.slot + 100)
            try Self.append(twin, context: context, to: &instances)
        }
    }

    private struct InstanceRow {
        var id: SyntheticID
        var task: SyntheticTask
        var client: SyntheticClient
        var day: Int
        var zone: Int
        var sortKey: Int
        var status: [UInt8]
        var completedAt: SyntheticInstant?
        var canceledAt: SyntheticInstant?
        var supersededAt: SyntheticInstant?
    }

    /// Static, so that writing into one of `self`'s writers never copies `self` (and its buffers).
    private static func append(_ row: InstanceRow, context: SyntheticDropContext, to writer: inout DropPartWriter)
        throws
    {
        let task = row.task
        writer.row.put(row.id)
        writer.row.put(row.client.workspace)
        writer.row.put(row.client.relationship)
        writer.row.putDate(row.day)
        writer.row.put(context.zones.names[row.zone])
        writer.row.put(task.kind.name)
        writer.row.put(task.kind.context)
        writer.row.put(SyntheticVocabulary.sourceType)
        writer.row.put(task.sourceID)
        writer.row.putInteger(1)
        writer.row.put(task.childKey)
        writer.row.append(task.kind.keyPrefix)
        writer.row.uuid(task.keyID)
        if task.isWorkout {
            writer.row.append(SyntheticVocabulary.colon)
            writer.row.uuid(task.sourceID)
        } else if !task.childKey.isEmpty {
            writer.row.append(SyntheticVocabulary.colon)
            writer.row.append(task.childKey)
        }
        writer.row.comma()
        writer.row.put(row.status)
        writer.row.putInteger(task.priority)
        writer.row.putInteger(row.sortKey)
        let due = task.hasDueTime ? context.zones.instant(zone: row.zone, day: row.day, minuteOfDay: 1260) : nil
        writer.row.put(due, .isoOffset)
        writer.row.put(task.kind.snapshot)
        writer.row.put(task.kind.actionSchema)
        writer.row.put(SyntheticInstant(day: row.day - 1, minuteOfDay: 660, offsetSeconds: 0), .postgresUTC)
        writer.row.put(row.completedAt, .postgresUTC)
        writer.row.put(row.canceledAt, .postgresUTC)
        if let supersededAt = row.supersededAt { writer.row.instant(supersededAt, .postgresUTC) }
        try writer.endRow()
    }

    private mutating func writeEvents(
        _ taskID: SyntheticID, _ task: SyntheticTask, _ outcome: SyntheticOutcome, client: SyntheticClient, day: Int,
        zone: Int, rng: inout SplitMix64
    ) throws {
        let words = SyntheticVocabulary.self
        var sequence = 0
        func event(_ from: [UInt8], _ to: [UInt8], _ actor: StatusEventRow.Actor, _ at: SyntheticInstant)
            -> StatusEventRow
        {
            defer { sequence += 1 }
            return StatusEventRow(
                id: SyntheticID(.event, seed: context.seed, client.index, day, task.slot * 32 + sequence),
                taskID: taskID,
                from: from, to: to, actor: actor, at: at,
                operation: actor == .client
                    ? SyntheticID(.operation, seed: context.seed, client.index, day, task.slot * 32 + sequence) : nil)
        }
        switch outcome.kind {
        case .informational:
            return
        case .canceled:
            try emit(event(words.pending, words.canceled, .coach, outcome.doneAt), client, zone, day, &rng)
        case .superseded:
            try emit(event(words.pending, words.superseded, .system, outcome.doneAt), client, zone, day, &rng)
        case .completed:
            if task.isWorkout {
                try emit(event(words.pending, words.inProgress, .client, outcome.startedAt), client, zone, day, &rng)
                try emit(event(words.inProgress, words.completed, .client, outcome.doneAt), client, zone, day, &rng)
            } else {
                try emit(event(words.pending, words.completed, .client, outcome.doneAt), client, zone, day, &rng)
            }
        case .completedLate:
            if let missedAt = outcome.missedAt {
                try emit(event(words.pending, words.missed, .system, missedAt), client, zone, day, &rng)
            }
            try emit(event(words.missed, words.completed, .client, outcome.doneAt), client, zone, day, &rng)
        case .skipped:
            var skip = event(words.pending, words.skipped, .client, outcome.doneAt)
            skip.reason = outcome.skipReason
            skip.note = outcome.skipNote
            try emit(skip, client, zone, day, &rng)
        case .missed:
            if let missedAt = outcome.missedAt {
                try emit(event(words.pending, words.missed, .system, missedAt), client, zone, day, &rng)
            }
        }
    }

    /// Writes one event (unless it happened after the export), maybe an
    /// offline retry of it, and its re-export for the last days.
    private mutating func emit(
        _ original: StatusEventRow, _ client: SyntheticClient, _ zone: Int, _ day: Int, _ rng: inout SplitMix64
    ) throws {
        guard context.isExported(original.at) else { return }
        var row = original
        row.decorate(rng: &rng, seed: context.seed, client: client)
        try row.append(to: &events, client: client, zoneName: context.zones.names[zone])
        if day >= context.reexportFromDay {
            try row.append(to: &eventsReexport, client: client, zoneName: context.zones.names[zone])
        }
        if row.operation != nil && rng.chance(0.02) {
            // The phone did not hear back and sent the same operation again.
            var retry = row
            retry.id = SyntheticID(.event, seed: context.seed, client.index, day, Int(truncatingIfNeeded: row.id.low))
            retry.at = row.at.adding(seconds: 2 + rng.below(120))
            if rng.chance(0.5) {
                try retry.append(to: &events, client: client, zoneName: context.zones.names[zone])
            } else {
                try retry.append(to: &eventsReexport, client: client, zoneName: context.zones.names[zone])
            }
        }
    }
}
