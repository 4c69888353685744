/// tasks/workout_logs: historical logs, each a WORKOUT task with one status
/// event (SPEC §1.3, §9 Time zones); an instance with the same key wins.
extension DropIngestor {
    func readWorkoutLogs() throws {
        // A resumed reading keeps the kept logs' decisions: a new log file
        // would place its tasks and events among the kept ones (logs come
        // after instances, their events before every status event).
        if resumption != nil {
            guard layout.workoutLogs.isEmpty else {
                throw ResumeRefusal(reason: "a workout-log file is new")
            }
            installKept(WorkoutLogColumn.kind)
            return
        }
        struct LogCandidate {
            var idKey: Int32
            var relationship: Int
            var date: LocalDate
            var status: TaskStatus
            var eventAt: ParsedInstant?
            var key: Int32
            var account: Int
        }
        var candidates: [LogCandidate] = []
        // The logs are the instance keys' last user: the table is taken, not
        // shared, so adding the logs' keys does not copy it (tens of MB).
        var keys = instanceKeys
        instanceKeys = FingerprintMap()
        let workout = ArraySlice(Array("WORKOUT".utf8))
        for file in layout.workoutLogs {
            try readCSV(file, WorkoutLogColumn.self) { row, account in
                let hasID = row.has(WorkoutLogColumn.id)
                if !hasID { row.failMissing(WorkoutLogColumn.id) }
                let relationshipID = row.slice(WorkoutLogColumn.relationshipID)
                if relationshipID == nil { row.failMissing(WorkoutLogColumn.relationshipID) }
                let assignment = row.text(WorkoutLogColumn.assignmentID)
                let programDay = row.text(WorkoutLogColumn.programDayID)
                let date = row.date(WorkoutLogColumn.localDate)
                let status = row.choice(WorkoutLogColumn.status, .workoutLogStatus).flatMap(TaskStatus.init(rawValue:))
                let started = row.instant(WorkoutLogColumn.startedAt)
                let completed = row.instant(WorkoutLogColumn.completedAt)
                let updated = row.instant(WorkoutLogColumn.updatedAt)
                guard row.rejectReason == nil, hasID, let relationshipID, let assignment, let programDay, let date,
                    let status
                else { return }
                guard let relationship = relationship(relationshipID) else {
                    row.fail("unknown_relationship")
                    return
                }
                let sourceKey = ArraySlice(Array("workout_log:\(assignment):\(programDay)".utf8))
                let key = keys.intern(DropIngestor.idempotencyKey(relationship, date, workout, sourceKey)).index
                candidates.append(
                    LogCandidate(
                        idKey: row.withField(WorkoutLogColumn.id) { taskIDKey($0) }, relationship: relationship,
                        date: date, status: status,
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
        // Kept for a later resumed reading: a new instance's key is then
        // compared with the logs' too.
        if options.keepsReadingTables { instanceKeys = keys }
        let workoutKind = drop.taskKind("WORKOUT")
        for position in live {
            let candidate = candidates[position]
            guard lastByID[candidate.idKey] == position, lastByKey[candidate.key] == position,
                !(Int(candidate.key) < acceptedInstanceKeys.count && acceptedInstanceKeys[Int(candidate.key)])
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
            let id = taskIDs.key(candidate.idKey)
            drop.tasks.append(
                DailyTask(
                    id: candidate.idKey, relationship: candidate.relationship,
                    localDate: candidate.date, zone: zone, kind: workoutKind,
                    status: candidate.status, valueTask: false, informational: false, fromLog: true, order: taskPosition
                ))
            taskOfID[Int(candidate.idKey)] = .accepted(taskPosition, relationship: candidate.relationship)
            // The log's one status event; noon of its day when it has no timestamp.
            let eventInstant =
                candidate.eventAt?.instant
                ?? Instant(micros: drop.zones.startOfDay(zone, candidate.date).micros + 12 * 3_600_000_000)
            if !isAfterAsOf(eventInstant) {
                let event = StatusEvent(
                    id: drop.eventIDs.append(id), task: taskPosition, toStatus: candidate.status,
                    occurredAt: eventInstant, offsetSeconds: candidate.eventAt?.offsetSeconds ?? 0, reason: nil)
                drop.events.append(event)
                if drop.asOfCandidates != nil {
                    var kept = event
                    kept.id = drop.asOfCandidates?.eventIDs.append(id) ?? event.id
                    drop.asOfCandidates?.logEvents.append(kept)
                }
            }
        }
    }
}
