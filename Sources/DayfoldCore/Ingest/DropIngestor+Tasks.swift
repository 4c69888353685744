import Foundation

/// tasks/: instances, historical workout logs, status events, value entries
/// and informational cards (SPEC §1.3, §9).
extension DropIngestor {
    private struct InstanceCandidate {
        var task: DailyTask
        var account: Int
        var idempotencyKey: String
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
        var invalidSchemas = 0
        for file in layout.instances {
            try readCSV(file, kind: "instances", columns: spec) { row, account in
                let id = row.text(0)
                let relationshipID = row.text(1)
                let date = row.date(2)
                let zoneName = row.text(3)
                var zone: ZoneID?
                if let zoneName {
                    zone = drop.zones.id(named: zoneName)
                    if zone == nil { row.fail("unknown_timezone:timezone") }
                }
                let kind = row.text(4)
                let sourceKey = row.text(5)
                let status = row.choice(6, TaskStatus.names).flatMap(TaskStatus.init(rawValue:))
                let schema = row.slice(7)
                for column in 8...13 { _ = row.instant(column) }
                guard row.rejectReason == nil, let id, let relationshipID, let date, let zone, let kind,
                    let sourceKey, let status
                else { return }
                guard let relationship = relationshipIndex[relationshipID] else {
                    row.fail("unknown_relationship")
                    return
                }
                let analysis = ActionSchema(schema)
                if !analysis.valid { invalidSchemas += 1 }
                let task = DailyTask(
                    id: id, relationship: relationship, localDate: date, zone: zone, kind: kind, sourceKey: sourceKey,
                    status: status, valueTask: analysis.valueCapture,
                    informational: kind == "REMINDER" && analysis.informational, fromLog: false,
                    order: candidates.count)
                candidates.append(
                    InstanceCandidate(
                        task: task, account: account,
                        idempotencyKey: "\(relationshipID)|\(date.days)|\(kind)|\(sourceKey)"))
            }
        }
        if invalidSchemas > 0 {
            drop.warnings.append("invalid JSON in action_schema read as {}: \(invalidSchemas) rows")
        }
        // Dedup by id (last wins), then by idempotency key (last wins).
        var lastByID: [String: Int] = [:]
        for (position, candidate) in candidates.enumerated() { lastByID[candidate.task.id] = position }
        var lastByKey: [String: Int] = [:]
        for (position, candidate) in candidates.enumerated() where lastByID[candidate.task.id] == position {
            lastByKey[candidate.idempotencyKey] = position
        }
        var keptIDForKey: [String: String] = [:]
        for (position, candidate) in candidates.enumerated() where lastByKey[candidate.idempotencyKey] == position {
            keptIDForKey[candidate.idempotencyKey] = candidate.task.id
        }
        var mergedInto: [String: String] = [:]
        for (position, candidate) in candidates.enumerated() {
            let isIDWinner = lastByID[candidate.task.id] == position
            guard isIDWinner else {
                count(candidate.account, .duplicate)
                continue
            }
            if lastByKey[candidate.idempotencyKey] != position {
                count(candidate.account, .duplicate)
                if let kept = keptIDForKey[candidate.idempotencyKey] { mergedInto[candidate.task.id] = kept }
                continue
            }
            let relationship = drop.relationships[candidate.task.relationship]
            if let ended = relationship.endedOn, candidate.task.localDate > ended {
                count(candidate.account, .ignored)
                ignoredTaskIDs[candidate.task.id] = relationship.id
                continue
            }
            count(candidate.account, .accepted)
            taskIndex[candidate.task.id] = drop.tasks.count
            drop.tasks.append(candidate.task)
        }
        for (loser, kept) in mergedInto {
            if let index = taskIndex[kept] {
                taskIndex[loser] = index
            } else if let relationship = ignoredTaskIDs[kept] {
                ignoredTaskIDs[loser] = relationship
            }
        }
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
            var id: String
            var relationship: Int
            var date: LocalDate
            var status: TaskStatus
            var eventAt: ParsedInstant?
            var key: String
            var account: Int
        }
        let spec = columns([
            ("id", true), ("relationship_id", true), ("assignment_id", true), ("program_day_id", true),
            ("local_date", true), ("status", true), ("started_at", false), ("completed_at", false), ("updated_at", false),
        ])
        var candidates: [LogCandidate] = []
        for file in layout.workoutLogs {
            try readCSV(file, kind: "workout_logs", columns: spec) { row, account in
                let id = row.text(0)
                let relationshipID = row.text(1)
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
                guard let relationship = relationshipIndex[relationshipID] else {
                    row.fail("unknown_relationship")
                    return
                }
                let sourceKey = "workout_log:\(assignment):\(programDay)"
                candidates.append(
                    LogCandidate(
                        id: id, relationship: relationship, date: date, status: status,
                        eventAt: completed ?? updated ?? started,
                        key: "\(relationshipID)|\(date.days)|WORKOUT|\(sourceKey)", account: account))
            }
        }
        var instanceKeys: Set<String> = []
        for task in drop.tasks {
            instanceKeys.insert("\(drop.relationships[task.relationship].id)|\(task.localDate.days)|\(task.kind)|\(task.sourceKey)")
        }
        var live: [Int] = []
        for (position, candidate) in candidates.enumerated() {
            if let ended = drop.relationships[candidate.relationship].endedOn, candidate.date > ended {
                count(candidate.account, .ignored)
            } else {
                live.append(position)
            }
        }
        var lastByID: [String: Int] = [:]
        for position in live { lastByID[candidates[position].id] = position }
        var lastByKey: [String: Int] = [:]
        for position in live where lastByID[candidates[position].id] == position {
            lastByKey[candidates[position].key] = position
        }
        for position in live {
            let candidate = candidates[position]
            guard lastByID[candidate.id] == position, lastByKey[candidate.key] == position,
                !instanceKeys.contains(candidate.key)
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
            let sourceKey = String(candidate.key.split(separator: "|", maxSplits: 3).last ?? "")
            drop.tasks.append(
                DailyTask(
                    id: candidate.id, relationship: candidate.relationship, localDate: candidate.date, zone: zone,
                    kind: "WORKOUT", sourceKey: sourceKey, status: candidate.status, valueTask: false,
                    informational: false, fromLog: true, order: taskPosition))
            taskIndex[candidate.id] = taskPosition
            // The log's one status event; noon of its day when it has no timestamp.
            let eventInstant =
                candidate.eventAt?.instant
                ?? Instant(micros: drop.zones.startOfDay(zone, candidate.date).micros + 12 * 3_600_000_000)
            if !isAfterAsOf(eventInstant) {
                drop.events.append(
                    StatusEvent(
                        id: candidate.id, task: taskPosition, toStatus: candidate.status, occurredAt: eventInstant,
                        offsetSeconds: candidate.eventAt?.offsetSeconds ?? 0, reason: nil))
            }
        }
    }

    func readStatusEvents() throws {
        let spec = columns([
            ("id", true), ("daily_task_instance_id", true), ("relationship_id", true), ("to_status", true),
            ("occurred_at", true), ("reason", false), ("device_id", false), ("client_operation_id", false),
            ("from_status", false), ("note", false), ("actor_user_id", false), ("metadata", false),
        ])
        var seenIDs: Set<String> = []
        var seenRetries: Set<String> = []
        for file in layout.statusEvents {
            try readCSV(file, kind: "status_events", columns: spec) { row, account in
                let id = row.text(0)
                let taskID = row.text(1)
                let relationshipID = row.text(2)
                let status = row.choice(3, TaskStatus.names).flatMap(TaskStatus.init(rawValue:))
                let occurred = row.instant(4)
                let reason = row.text(5)
                let device = row.text(6)
                let operation = row.text(7)
                guard row.rejectReason == nil, let id, let taskID, let relationshipID, let status, let occurred else {
                    return
                }
                guard let decision = resolveTask(taskID, relationshipID, &row) else { return }
                guard let task = decision, !isAfterAsOf(occurred.instant) else {
                    row.fate = .ignored
                    return
                }
                let retryKey = operation.map { "\(relationshipID)|\(device ?? "")|\(device == nil ? 0 : 1)|\($0)" }
                if seenIDs.contains(id) || retryKey.map(seenRetries.contains) == true {
                    row.fate = .duplicate
                    return
                }
                seenIDs.insert(id)
                if let retryKey { seenRetries.insert(retryKey) }
                row.fate = .accepted
                drop.events.append(StatusEvent(id: id, task: task, toStatus: status, occurredAt: occurred.instant,
                        offsetSeconds: occurred.offsetSeconds, reason: reason))
            }
        }
    }

    /// Looks up the task a row refers to: nil when the row is rejected
    /// (unknown task, relationship mismatch); `.some(nil)` when the task is ignored.
    private func resolveTask(_ taskID: String, _ relationshipID: String, _ row: inout CSVRow) -> Int?? {
        if let index = taskIndex[taskID] {
            guard drop.relationships[drop.tasks[index].relationship].id == relationshipID else {
                row.fail("relationship_mismatch")
                return nil
            }
            return .some(index)
        }
        if let relationship = ignoredTaskIDs[taskID] {
            guard relationship == relationshipID else {
                row.fail("relationship_mismatch")
                return nil
            }
            return .some(nil)
        }
        row.fail("unknown_task")
        return nil
    }

    func readValueEntries() throws {
        let spec = columns([
            ("id", true), ("daily_task_instance_id", true), ("relationship_id", true), ("value", true),
            ("recorded_at", true), ("status", false), ("device_id", false), ("client_operation_id", false),
        ])
        var seenIDs: Set<String> = []
        var seenRetries: Set<String> = []
        for file in layout.valueEntries {
            try readCSV(file, kind: "value_entries", columns: spec) { row, account in
                let id = row.text(0)
                let taskID = row.text(1)
                let relationshipID = row.text(2)
                _ = row.number(3)
                let recorded = row.instant(4)
                let status = row.choice(5, ["ACCEPTED", "REJECTED"]) ?? "ACCEPTED"
                let device = row.text(6)
                let operation = row.text(7)
                guard row.rejectReason == nil, let id, let taskID, let relationshipID, let recorded else { return }
                guard let decision = resolveTask(taskID, relationshipID, &row) else { return }
                guard let task = decision, !isAfterAsOf(recorded.instant) else {
                    row.fate = .ignored
                    return
                }
                let retryKey = operation.map { "\(relationshipID)|\(device ?? "")|\(device == nil ? 0 : 1)|\($0)" }
                if seenIDs.contains(id) || retryKey.map(seenRetries.contains) == true {
                    row.fate = .duplicate
                    return
                }
                seenIDs.insert(id)
                if let retryKey { seenRetries.insert(retryKey) }
                row.fate = .accepted
                drop.valueEntries.append(ValueEntry(
                        task: task, recordedAt: recorded.instant, offsetSeconds: recorded.offsetSeconds,
                        accepted: status == "ACCEPTED"))
            }
        }
    }

    func readInfoCards() throws {
        struct CardCandidate {
            var id: String
            var card: InfoCard
            var key: String
            var account: Int
        }
        let spec = columns([("id", true), ("relationship_id", true), ("local_date", true), ("card_key", true)])
        var candidates: [CardCandidate] = []
        for file in layout.infoCards {
            try readCSV(file, kind: "info_cards", columns: spec) { row, account in
                let id = row.text(0)
                let relationshipID = row.text(1)
                let date = row.date(2)
                let cardKey = row.text(3)
                guard row.rejectReason == nil, let id, let relationshipID, let date, let cardKey else { return }
                guard let relationship = relationshipIndex[relationshipID] else {
                    row.fail("unknown_relationship")
                    return
                }
                if let ended = drop.relationships[relationship].endedOn, date > ended {
                    row.fate = .ignored
                    return
                }
                candidates.append(
                    CardCandidate(
                        id: id, card: InfoCard(relationship: relationship, localDate: date),
                        key: "\(relationshipID)|\(date.days)|\(cardKey)", account: account))
            }
        }
        var lastByID: [String: Int] = [:]
        for (position, candidate) in candidates.enumerated() { lastByID[candidate.id] = position }
        var lastByKey: [String: Int] = [:]
        for (position, candidate) in candidates.enumerated() where lastByID[candidate.id] == position {
            lastByKey[candidate.key] = position
        }
        for (position, candidate) in candidates.enumerated() {
            if lastByID[candidate.id] == position && lastByKey[candidate.key] == position {
                count(candidate.account, .accepted)
                drop.infoCards.append(candidate.card)
            } else {
                count(candidate.account, .duplicate)
            }
        }
    }
}
