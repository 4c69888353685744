/// tasks/: instances, historical workout logs, status events, value entries
/// and informational cards (SPEC §1.3, §9). Ids and keys are looked up as
/// bytes in intern tables: no String is made per row on these paths.
extension DropIngestor {
    private struct InstanceCandidate {
        var idKey: Int32
        var idempotencyKey: Int32
        var relationship: Int
        var date: LocalDate
        var zone: ZoneID
        var kind: Int32
        var status: TaskStatus
        var schema: ActionSchema
        var account: Int
    }

    /// The composite idempotency key (relationship, date, kind, source key) as bytes.
    func idempotencyKey(
        _ relationship: Int, _ date: LocalDate, _ kind: ArraySlice<UInt8>, _ sourceKey: ArraySlice<UInt8>
    )
        -> ArraySlice<UInt8>
    {
        keyBuffer.removeAll(keepingCapacity: true)
        withUnsafeBytes(of: Int64(relationship).littleEndian) { keyBuffer.append(contentsOf: $0) }
        withUnsafeBytes(of: date.days.littleEndian) { keyBuffer.append(contentsOf: $0) }
        keyBuffer.append(contentsOf: kind)
        keyBuffer.append(0)
        keyBuffer.append(contentsOf: sourceKey)
        return keyBuffer[...]
    }

    /// Registers a task id (new ids start as `.none`).
    private func taskIDKey(_ id: ArraySlice<UInt8>) -> Int32 {
        let (key, isNew) = taskIDs.intern(id)
        if isNew { taskOfID.append(.none) }
        return key
    }

    func readInstances() throws {
        let spec = columns([
            ("id", true), ("relationship_id", true), ("local_date", true), ("timezone", true), ("task_kind", true),
            ("source_key", true), ("status", true), ("action_schema", false),
            ("starts_at", false), ("due_at", false), ("generated_at", false), ("completed_at", false),
            ("canceled_at", false), ("superseded_at", false),
            ("workspace_id", false), ("source_context", false), ("source_type", false), ("source_id", false),
            ("source_revision", false), ("source_child_key", false), ("priority", false), ("sort_key", false),
            ("snapshot", false), ("completion_summary", false),
        ])
        var candidates: [InstanceCandidate] = []
        var keys = ByteKeyTable()
        var kinds = ByteInterner()
        var zoneNames = ByteKeyTable()
        var zoneOfName: [ZoneID?] = []
        var invalidSchemas = 0
        for file in layout.instances {
            try readCSV(file, kind: "instances", columns: spec) { row, account in
                let id = row.slice(0)
                if id == nil { row.fail("missing_column:id") }
                let relationshipID = row.slice(1)
                if relationshipID == nil { row.fail("missing_column:relationship_id") }
                let date = row.date(2)
                var zone: ZoneID?
                if let zoneName = row.slice(3) {
                    let (key, isNew) = zoneNames.intern(zoneName)
                    if isNew { zoneOfName.append(drop.zones.id(named: String(decoding: zoneName, as: UTF8.self))) }
                    zone = zoneOfName[Int(key)]
                    if zone == nil { row.fail("unknown_timezone:timezone") }
                } else {
                    row.fail("missing_column:timezone")
                }
                let kind = row.slice(4)
                if kind == nil { row.fail("missing_column:task_kind") }
                let sourceKey = row.slice(5)
                if sourceKey == nil { row.fail("missing_column:source_key") }
                let status = row.choice(6, TaskStatus.names).flatMap(TaskStatus.init(rawValue:))
                for column in 8...13 { _ = row.instant(column) }
                guard row.rejectReason == nil, let id, let relationshipID, let date, let zone, let kind, let sourceKey,
                    let status
                else { return }
                guard let relationship = relationship(relationshipID) else {
                    row.fail("unknown_relationship")
                    return
                }
                let schema = ActionSchema(row.slice(7))
                if !schema.valid { invalidSchemas += 1 }
                let key = keys.intern(idempotencyKey(relationship, date, kind, sourceKey)).index
                candidates.append(
                    InstanceCandidate(
                        idKey: taskIDKey(id), idempotencyKey: key, relationship: relationship, date: date, zone: zone,
                        kind: kinds.intern(kind), status: status, schema: schema, account: account))
            }
        }
        if invalidSchemas > 0 {
            drop.warnings.append("invalid JSON in action_schema read as {}: \(invalidSchemas) rows")
        }
        // Dedup by id (last wins), then by idempotency key (last wins).
        var lastByID = [Int](repeating: -1, count: taskIDs.count)
        for (position, candidate) in candidates.enumerated() { lastByID[Int(candidate.idKey)] = position }
        var lastByKey = [Int](repeating: -1, count: keys.count)
        for (position, candidate) in candidates.enumerated() where lastByID[Int(candidate.idKey)] == position {
            lastByKey[Int(candidate.idempotencyKey)] = position
        }
        var merged: [(loser: Int32, kept: Int32)] = []
        for (position, candidate) in candidates.enumerated() {
            guard lastByID[Int(candidate.idKey)] == position else {
                count(candidate.account, .duplicate)
                continue
            }
            let keptPosition = lastByKey[Int(candidate.idempotencyKey)]
            if keptPosition != position {
                count(candidate.account, .duplicate)
                merged.append((candidate.idKey, candidates[keptPosition].idKey))
                continue
            }
            if let ended = drop.relationships[candidate.relationship].endedOn, candidate.date > ended {
                count(candidate.account, .ignored)
                taskOfID[Int(candidate.idKey)] = .ignored(relationship: candidate.relationship)
                continue
            }
            count(candidate.account, .accepted)
            taskOfID[Int(candidate.idKey)] = .accepted(drop.tasks.count)
            let kind = kinds[candidate.kind]
            drop.tasks.append(
                DailyTask(
                    id: String(decoding: taskIDs.key(candidate.idKey), as: UTF8.self),
                    relationship: candidate.relationship,
                    localDate: candidate.date, zone: candidate.zone, kind: kind, status: candidate.status,
                    valueTask: candidate.schema.valueCapture,
                    informational: kind == "REMINDER" && candidate.schema.informational, fromLog: false,
                    order: position))
            acceptedInstanceKeys.insert(candidate.idempotencyKey)
        }
        for (loser, kept) in merged { taskOfID[Int(loser)] = taskOfID[Int(kept)] }
        instanceKeys = keys
        // The §1.2 fallback: each client's latest accepted instance (by date, then file order).
        var latest: [String: (LocalDate, Int, ZoneID)] = [:]
        for task in drop.tasks {
            let user = drop.relationships[task.relationship].clientUserID
            if let current = latest[user], (current.0, current.1) > (task.localDate, task.order) { continue }
            latest[user] = (task.localDate, task.order, task.zone)
        }
        drop.latestInstanceZone = latest.mapValues { $0.2 }
        let defaultZone = options.defaultTimezone.flatMap { drop.zones.id(named: $0) }
        drop.userZones = UserZones(
            zones: drop.zones, history: drop.timezoneRows, latestInstanceZone: drop.latestInstanceZone,
            defaultZone: defaultZone)
    }

    func readWorkoutLogs() throws {
        struct LogCandidate {
            var idKey: Int32
            var relationship: Int
            var date: LocalDate
            var status: TaskStatus
            var eventAt: ParsedInstant?
            var key: Int32
            var account: Int
        }
        let spec = columns([
            ("id", true), ("relationship_id", true), ("assignment_id", true), ("program_day_id", true),
            ("local_date", true), ("status", true), ("started_at", false), ("completed_at", false),
            ("updated_at", false),
        ])
        var candidates: [LogCandidate] = []
        var keys = instanceKeys
        let workout = ArraySlice(Array("WORKOUT".utf8))
        for file in layout.workoutLogs {
            try readCSV(file, kind: "workout_logs", columns: spec) { row, account in
                let id = row.slice(0)
                if id == nil { row.fail("missing_column:id") }
                let relationshipID = row.slice(1)
                if relationshipID == nil { row.fail("missing_column:relationship_id") }
                let assignment = row.text(2)
                let programDay = row.text(3)
                let date = row.date(4)
                let status = row.choice(5, ["IN_PROGRESS", "COMPLETED", "SKIPPED"]).flatMap(TaskStatus.init(rawValue:))
                let started = row.instant(6)
                let completed = row.instant(7)
                let updated = row.instant(8)
                guard row.rejectReason == nil, let id, let relationshipID, let assignment, let programDay, let date,
                    let status
                else { return }
                guard let relationship = relationship(relationshipID) else {
                    row.fail("unknown_relationship")
                    return
                }
                let sourceKey = ArraySlice(Array("workout_log:\(assignment):\(programDay)".utf8))
                let key = keys.intern(idempotencyKey(relationship, date, workout, sourceKey)).index
                candidates.append(
                    LogCandidate(
                        idKey: taskIDKey(id), relationship: relationship, date: date, status: status,
                        eventAt: completed ?? updated ?? started, key: key, account: account))
            }
        }
        var live: [Int] = []
        for (position, candidate) in candidates.enumerated() {
            if let ended = drop.relationships[candidate.relationship].endedOn, candidate.date > ended {
                count(candidate.account, .ignored)
            } else {
                live.append(position)
            }
        }
        var lastByID: [Int32: Int] = [:]
        for position in live { lastByID[candidates[position].idKey] = position }
        var lastByKey: [Int32: Int] = [:]
        for position in live where lastByID[candidates[position].idKey] == position {
            lastByKey[candidates[position].key] = position
        }
        for position in live {
            let candidate = candidates[position]
            guard lastByID[candidate.idKey] == position, lastByKey[candidate.key] == position,
                !acceptedInstanceKeys.contains(candidate.key)
            else {
                count(candidate.account, .duplicate)
                continue
            }
            count(candidate.account, .accepted)
            let user = drop.relationships[candidate.relationship].clientUserID
            let zone: ZoneID
            if let eventAt = candidate.eventAt, !drop.userZones.hasConfiguredZone(user) {
                zone = drop.userZones.zone(user, at: eventAt)
            } else {
                zone = drop.userZones.zone(user, on: candidate.date)
            }
            let taskPosition = drop.tasks.count
            let id = String(decoding: taskIDs.key(candidate.idKey), as: UTF8.self)
            drop.tasks.append(
                DailyTask(
                    id: id, relationship: candidate.relationship, localDate: candidate.date, zone: zone,
                    kind: "WORKOUT",
                    status: candidate.status, valueTask: false, informational: false, fromLog: true, order: taskPosition
                ))
            taskOfID[Int(candidate.idKey)] = .accepted(taskPosition)
            // The log's one status event; noon of its day when it has no timestamp.
            let eventInstant =
                candidate.eventAt?.instant
                ?? Instant(micros: drop.zones.startOfDay(zone, candidate.date).micros + 12 * 3_600_000_000)
            if !isAfterAsOf(eventInstant) {
                drop.events.append(
                    StatusEvent(
                        id: id, task: taskPosition, toStatus: candidate.status, occurredAt: eventInstant,
                        offsetSeconds: candidate.eventAt?.offsetSeconds ?? 0, reason: nil))
            }
        }
    }

    /// The offline-retry key (relationship, device, operation) as bytes; NULL devices compare equal.
    private func retryKey(
        _ relationship: ArraySlice<UInt8>, _ device: ArraySlice<UInt8>?, _ operation: ArraySlice<UInt8>
    )
        -> ArraySlice<UInt8>
    {
        keyBuffer.removeAll(keepingCapacity: true)
        keyBuffer.append(contentsOf: relationship)
        keyBuffer.append(0)
        if let device {
            keyBuffer.append(1)
            keyBuffer.append(contentsOf: device)
        } else {
            keyBuffer.append(2)
        }
        keyBuffer.append(0)
        keyBuffer.append(contentsOf: operation)
        return keyBuffer[...]
    }

    func readStatusEvents() throws {
        let spec = columns([
            ("id", true), ("daily_task_instance_id", true), ("relationship_id", true), ("device_id", false),
            ("client_operation_id", false), ("to_status", true), ("occurred_at", true), ("reason", false),
            ("from_status", false), ("note", false), ("actor_user_id", false), ("metadata", false),
        ])
        var dedup = TaskRowDeduplicator()
        // Skip reasons are a small vocabulary: one shared String each.
        var eventReasons = ByteInterner()
        for file in layout.statusEvents {
            try readCSV(file, kind: "status_events", columns: spec) { row, account in
                let reference = taskReference(&row)
                let status = row.choice(5, TaskStatus.names).flatMap(TaskStatus.init(rawValue:))
                let occurred = row.instant(6)
                guard row.rejectReason == nil, let reference, let status, let occurred else { return }
                guard let task = decideTaskRow(reference, at: occurred.instant, &row, &dedup) else { return }
                if options.retainRows {
                    drop.events.append(
                        StatusEvent(
                            id: String(decoding: reference.id, as: UTF8.self), task: task, toStatus: status,
                            occurredAt: occurred.instant, offsetSeconds: occurred.offsetSeconds,
                            reason: row.slice(7).map { eventReasons.string($0) }))
                }
            }
        }
    }

    /// The leading fields events and value entries share: id, task id,
    /// relationship id (columns 0–2), device and operation (3–4).
    struct TaskRowReference {
        var id: ArraySlice<UInt8>
        var taskID: ArraySlice<UInt8>
        var relationshipID: ArraySlice<UInt8>
    }

    /// Reads columns 0–2; a missing one rejects the row.
    private func taskReference(_ row: inout CSVRow) -> TaskRowReference? {
        let id = row.slice(0)
        if id == nil { row.fail("missing_column:id") }
        let taskID = row.slice(1)
        if taskID == nil { row.fail("missing_column:daily_task_instance_id") }
        let relationshipID = row.slice(2)
        if relationshipID == nil { row.fail("missing_column:relationship_id") }
        guard let id, let taskID, let relationshipID else { return nil }
        return TaskRowReference(id: id, taskID: taskID, relationshipID: relationshipID)
    }

    /// The shared decisions for an event or value entry whose fields are
    /// valid: unknown task / relationship mismatch (rejected) → task ignored
    /// or instant after as-of (ignored) → same id or same offline-retry key
    /// as an earlier row (duplicate, the first in file order is kept) →
    /// accepted. Returns the task index when accepted.
    private func decideTaskRow(
        _ reference: TaskRowReference, at instant: Instant, _ row: inout CSVRow, _ dedup: inout TaskRowDeduplicator
    ) -> Int? {
        guard let decision = resolveTask(reference.taskID, reference.relationshipID, &row) else { return nil }
        guard let task = decision, !isAfterAsOf(instant) else {
            row.fate = .ignored
            return nil
        }
        if dedup.ids.find(reference.id) != nil {
            row.fate = .duplicate
            return nil
        }
        var retry: ArraySlice<UInt8>?
        if let operation = row.slice(4) {
            let key = retryKey(reference.relationshipID, row.slice(3), operation)
            if dedup.retries.find(key) != nil {
                row.fate = .duplicate
                return nil
            }
            retry = key
        }
        _ = dedup.ids.intern(reference.id)
        if let retry { _ = dedup.retries.intern(retry) }
        row.fate = .accepted
        return task
    }

    /// Looks up the task a row refers to: nil when the row is rejected
    /// (unknown task, relationship mismatch); `.some(nil)` when the task is ignored.
    private func resolveTask(_ taskID: ArraySlice<UInt8>, _ relationshipID: ArraySlice<UInt8>, _ row: inout CSVRow)
        -> Int??
    {
        let reference = taskIDs.find(taskID).map { taskOfID[Int($0)] } ?? .none
        let owner: Int
        switch reference {
        case .none:
            row.fail("unknown_task")
            return nil
        case .accepted(let index): owner = drop.tasks[index].relationship
        case .ignored(let relationship): owner = relationship
        }
        guard relationship(relationshipID) == owner else {
            row.fail("relationship_mismatch")
            return nil
        }
        if case .accepted(let index) = reference { return .some(index) }
        return .some(nil)
    }

    func readValueEntries() throws {
        let spec = columns([
            ("id", true), ("daily_task_instance_id", true), ("relationship_id", true), ("device_id", false),
            ("client_operation_id", false), ("value", true), ("recorded_at", true), ("status", false),
        ])
        var dedup = TaskRowDeduplicator()
        for file in layout.valueEntries {
            try readCSV(file, kind: "value_entries", columns: spec) { row, account in
                let reference = taskReference(&row)
                _ = row.number(5)
                let recorded = row.instant(6)
                let status = row.choice(7, ["ACCEPTED", "REJECTED"]) ?? "ACCEPTED"
                guard row.rejectReason == nil, let reference, let recorded else { return }
                guard let task = decideTaskRow(reference, at: recorded.instant, &row, &dedup) else { return }
                if options.retainRows {
                    drop.valueEntries.append(
                        ValueEntry(
                            task: task, recordedAt: recorded.instant, offsetSeconds: recorded.offsetSeconds,
                            accepted: status == "ACCEPTED"))
                }
            }
        }
    }

    func readInfoCards() throws {
        struct CardCandidate {
            var idKey: Int32
            var card: InfoCard
            var key: Int32
            var account: Int
        }
        let spec = columns([("id", true), ("relationship_id", true), ("local_date", true), ("card_key", true)])
        var candidates: [CardCandidate] = []
        var ids = ByteKeyTable()
        var keys = ByteKeyTable()
        for file in layout.infoCards {
            try readCSV(file, kind: "info_cards", columns: spec) { row, account in
                let id = row.slice(0)
                if id == nil { row.fail("missing_column:id") }
                let relationshipID = row.slice(1)
                if relationshipID == nil { row.fail("missing_column:relationship_id") }
                let date = row.date(2)
                let cardKey = row.slice(3)
                if cardKey == nil { row.fail("missing_column:card_key") }
                guard row.rejectReason == nil, let id, let relationshipID, let date, let cardKey else { return }
                guard let relationship = relationship(relationshipID) else {
                    row.fail("unknown_relationship")
                    return
                }
                if let ended = drop.relationships[relationship].endedOn, date > ended {
                    row.fate = .ignored
                    return
                }
                let key = keys.intern(idempotencyKey(relationship, date, [], cardKey)).index
                candidates.append(
                    CardCandidate(
                        idKey: ids.intern(id).index, card: InfoCard(relationship: relationship, localDate: date),
                        key: key,
                        account: account))
            }
        }
        var lastByID = [Int](repeating: -1, count: ids.count)
        for (position, candidate) in candidates.enumerated() { lastByID[Int(candidate.idKey)] = position }
        var lastByKey = [Int](repeating: -1, count: keys.count)
        for (position, candidate) in candidates.enumerated() where lastByID[Int(candidate.idKey)] == position {
            lastByKey[Int(candidate.key)] = position
        }
        for (position, candidate) in candidates.enumerated() {
            if lastByID[Int(candidate.idKey)] == position && lastByKey[Int(candidate.key)] == position {
                count(candidate.account, .accepted)
                drop.infoCards.append(candidate.card)
            } else {
                count(candidate.account, .duplicate)
            }
        }
    }
}

/// Ids and offline-retry keys already accepted (events and value entries
/// have separate key spaces, SPEC §9).
struct TaskRowDeduplicator {
    var ids = ByteKeyTable()
    var retries = ByteKeyTable()
}
