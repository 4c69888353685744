/// tasks/instances: the daily task projection (SPEC §1.3, §9). Ids and
/// keys are looked up as bytes in intern tables: no String per row.
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

    /// The fingerprint of the composite idempotency key (relationship, date, kind, source key).
    static func idempotencyKey(
        _ relationship: Int, _ date: LocalDate, _ kind: ArraySlice<UInt8>, _ sourceKey: ArraySlice<UInt8>
    ) -> UInt64 {
        var key = Fingerprint()
        key.combine(Int64(relationship))
        key.combine(Int64(date.days))
        key.combine(kind)
        key.combine(sourceKey)
        return key.value
    }

    /// As `idempotencyKey(_:_:_:_:)`, for kind and source key read in place
    /// (fields of `bytes`).
    static func idempotencyKey(
        _ relationship: Int, _ date: LocalDate, _ bytes: [UInt8], kind: Range<Int>, sourceKey: Range<Int>
    ) -> UInt64 {
        var key = Fingerprint()
        key.combine(Int64(relationship))
        key.combine(Int64(date.days))
        key.combine(bytes, field: kind)
        key.combine(bytes, field: sourceKey)
        return key.value
    }

    /// Registers a task id read in place (`CSVRow.withField`; new ids start
    /// as `.none`); `hash` as `ByteKeyTable.intern` takes it.
    func taskIDKey(_ id: Span<UInt8>, hash: UInt64? = nil) -> Int32 {
        let (key, isNew) = taskIDs.intern(id, hash: hash)
        if isNew { taskOfID.append(.none) }
        return key
    }

    func readInstances() throws {
        // A resumed reading starts from the kept task kinds (then `layout`
        // lists only the new instance files).
        let resumed = resumption
        var kept = resumed.map(resumeTaskKinds)
        installKept(InstanceColumn.kind)
        var candidates: [InstanceCandidate] = []
        // Shared by the loop and its look-ahead (`LoopState`). The kept keys
        // move into it: left referenced by `kept` too, the first new key
        // copied the whole map (32 MB on the 1.1 GB drop).
        let keys = LoopState(kept?.keys ?? FingerprintMap())
        kept?.keys = FingerprintMap()
        let keptIDs = taskIDs.count
        let keptKeys = keys.value.count
        let keptKinds = drop.taskKinds.count
        let expected = expectedRows(layout.instances, bytesPerRow: 500)
        taskIDs.reserve(expected)
        // Events and value entries look their task up here at random.
        taskOfID.reserveForRandomAccess(taskOfID.count + expected)
        keys.value.reserve(expected)
        let room = roomForRows(layout.instances, shortestRow: 200)
        candidates.reserveCapacity(room)
        // Zones, kinds and schemas are a handful of texts that every row
        // repeats: each is found by the fingerprint the preparing thread
        // took of it (`InstanceFields`), so this thread does not read the
        // texts (comparing them was a cache miss a column, the record's
        // bytes being new to this core), only a text seen for the first time.
        var kinds = ByteInterner()
        var kindOfPrint = FingerprintMap()
        var zoneOfPrint = FingerprintMap()
        var zoneOfName: [ZoneID?] = []
        var invalidSchemas = 0
        // Each distinct schema text is scanned once (up to 4096 of them; a
        // drop with more has each further one scanned on every row).
        var schemaOfPrint = FingerprintMap()
        var schemas: [ActionSchema] = []
        func schema(_ print: UInt64?, _ row: CSVRow) -> ActionSchema {
            guard let print else { return ActionSchema(nil) }
            if let known = schemaOfPrint[print] { return schemas[Int(known)] }
            let scanned = ActionSchema(row.slice(InstanceColumn.actionSchema))
            guard schemas.count < 4096 else { return scanned }
            schemaOfPrint[print] = Int32(schemas.count)
            schemas.append(scanned)
            return scanned
        }
        let prepare = InstanceFields.preparing(relationshipLookup)
        // A few rows ahead: the tables are told which id and key the row will look up.
        let ahead = { (row: InstanceFields) in
            if let hash = row.idHash { self.taskIDs.expectLookup(hash: hash) }
            if let key = row.key { keys.value.expectLookup(key) }
        }
        for file in layout.instances {
            try readCSV(file, InstanceColumn.self, prepare: prepare, ahead: ahead) {
                row, account, prepared in
                // The first problem found is the reject reason: each check
                // returns at once. (Unwrapping the fields together kept them
                // in a tuple of optionals, destroyed through the runtime.)
                // The values are the preparing thread's (`InstanceFields`);
                // where one is nil the field failed, and the row's accessor
                // (`row.date`, `row.status`, `row.instant`) records why.
                guard row.has(InstanceColumn.id) else { return row.failMissing(InstanceColumn.id) }
                guard row.has(InstanceColumn.relationshipID) else {
                    return row.failMissing(InstanceColumn.relationshipID)
                }
                guard let date = prepared.date ?? row.date(InstanceColumn.localDate) else { return }
                guard let zonePrint = prepared.zone else { return row.failMissing(InstanceColumn.timezone) }
                let (zoneKey, isNewZone) = zoneOfPrint.intern(zonePrint)
                if isNewZone {
                    zoneOfName.append(row.text(InstanceColumn.timezone).flatMap { drop.zones.id(named: $0) })
                }
                guard let zone = zoneOfName[Int(zoneKey)] else {
                    return row.fail("unknown_timezone:timezone")
                }
                guard let kindPrint = prepared.kind else { return row.failMissing(InstanceColumn.taskKind) }
                guard row.has(InstanceColumn.sourceKey) else { return row.failMissing(InstanceColumn.sourceKey) }
                guard let status = prepared.status ?? row.status(InstanceColumn.status) else { return }
                if !prepared.instantsValid {
                    for column in InstanceColumn.checkedInstants { _ = row.instant(column) }
                    if row.rejectReason != nil { return }
                }
                // With the relationship known (and date, kind and source key
                // there, as checked above) the key was made.
                guard let relationship = prepared.relationship, let idempotencyKey = prepared.key else {
                    row.fail("unknown_relationship")
                    return
                }
                let schema = schema(prepared.schema, row)
                if !schema.valid { invalidSchemas += 1 }
                let (kindKey, isNewKind) = kindOfPrint.intern(kindPrint)
                if isNewKind {
                    // Kinds are interned in order of first sight, as their fingerprints are.
                    _ = row.withField(InstanceColumn.taskKind) { kinds.intern($0) }
                }
                let key = keys.value.intern(idempotencyKey).index
                // Fields are read in place (`withField`): taking the record's
                // bytes or a slice of them retained and released the buffer.
                let idKey = row.withField(InstanceColumn.id) { taskIDKey($0, hash: prepared.idHash) }
                candidates.append(
                    InstanceCandidate(
                        idKey: idKey, idempotencyKey: key,
                        relationship: relationship, date: date, zone: zone,
                        kind: kindKey,
                        status: status,
                        schema: schema, account: account))
            }
        }
        drop.invalidSchemaRows += invalidSchemas
        if resumed != nil { try checkResumable(candidates, keptIDs: keptIDs, keptKeys: keptKeys) }
        // Dedup by id (last wins), then by idempotency key (last wins), over
        // the ids and keys the new rows hold: a resumed reading's are all
        // new (`checkResumable`), and arrays over the kept ones too were 16
        // MB of fresh memory a night on the 1.1 GB drop.
        let (firstID, firstKey) = resumed == nil ? (0, 0) : (keptIDs, keptKeys)
        var lastByID = IndexWindow(first: firstID, count: taskIDs.count - firstID)
        for (position, candidate) in candidates.enumerated() { lastByID[Int(candidate.idKey)] = position }
        var lastByKey = IndexWindow(first: firstKey, count: keys.value.count - firstKey)
        // (A resumed reading's kept keys keep their flags; no new candidate holds one.)
        if resumed == nil { acceptedInstanceKeys = [] }
        acceptedInstanceKeys.append(
            contentsOf: repeatElement(false, count: keys.value.count - acceptedInstanceKeys.count))
        for (position, candidate) in candidates.enumerated() where lastByID[Int(candidate.idKey)] == position {
            lastByKey[Int(candidate.idempotencyKey)] = position
        }
        var merged: [(loser: Int32, kept: Int32)] = []
        // A resumed reading's new tasks go before the kept log tasks, as a
        // reading in sequence places them (logs are read after instances).
        let orderBase = kept?.candidates ?? 0
        var keptLogTasks: [DailyTask] = []
        if let kept {
            keptLogTasks = Array(drop.tasks[kept.tasks...])
            drop.tasks.removeSubrange(kept.tasks...)
        }
        drop.tasks.reserveForRandomAccess(drop.tasks.count + candidates.count)
        let kindOf = kinds.strings.map { drop.taskKind($0) }
        if resumed != nil, drop.taskKinds.count > keptKinds {
            throw ResumeRefusal(reason: "a new instance file names a task kind the kept reading does not")
        }
        let isReminder = kinds.strings.map { $0 == "REMINDER" }
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
            taskOfID[Int(candidate.idKey)] = .accepted(drop.tasks.count, relationship: candidate.relationship)
            drop.tasks.append(
                DailyTask(
                    id: candidate.idKey,
                    relationship: candidate.relationship,
                    localDate: candidate.date, zone: candidate.zone, kind: kindOf[Int(candidate.kind)],
                    status: candidate.status, valueTask: candidate.schema.valueCapture,
                    informational: isReminder[Int(candidate.kind)] && candidate.schema.informational, fromLog: false,
                    order: orderBase + position))
            acceptedInstanceKeys[Int(candidate.idempotencyKey)] = true
        }
        for (loser, kept) in merged { taskOfID[Int(loser)] = taskOfID[Int(kept)] }
        instanceKeys = keys.value
        // The §1.2 fallback: each client's latest accepted instance (by date,
        // then file order): the latest per relationship, then per client.
        var latestOfRelationship = [(LocalDate, Int, ZoneID)?](repeating: nil, count: drop.relationships.count)
        for task in drop.tasks {
            if let current = latestOfRelationship[task.relationship],
                (current.0, current.1) > (task.localDate, task.order)
            {
                continue
            }
            latestOfRelationship[task.relationship] = (task.localDate, task.order, task.zone)
        }
        var latest: [String: (LocalDate, Int, ZoneID)] = [:]
        for (relationship, candidate) in latestOfRelationship.enumerated() {
            guard let candidate else { continue }
            let user = drop.relationships[relationship].clientUserID
            if let current = latest[user], (current.0, current.1) > (candidate.0, candidate.1) { continue }
            latest[user] = candidate
        }
        drop.latestInstanceZone = latest.mapValues { $0.2 }
        tables.instanceCandidates = orderBase + candidates.count
        tables.instanceTasks = drop.tasks.count
        if let resumed, let kept {
            try resumeLogTasks(keptLogTasks, first: kept.tasks, zones: resumed.latestInstanceZone, keptIDs: keptIDs)
        } else {
            tables.zonesAfterInstances = drop.zones.zoneNames.count
        }
        let defaultZone = options.defaultTimezone.flatMap { drop.zones.id(named: $0) }
        drop.userZones = UserZones(
            zones: drop.zones, history: drop.timezoneRows, latestInstanceZone: drop.latestInstanceZone,
            defaultZone: defaultZone)
    }
}

extension DropIngestor {
    /// What readInstances resumes from beside the ingestor's own tables.
    fileprivate struct KeptInstances: Sendable {
        var keys: FingerprintMap
        /// Instance candidates, and tasks from instances (log tasks follow).
        var candidates: Int
        var tasks: Int
    }

    /// Starts a resumed reading's task kinds from the kept reading's: its
    /// tasks, ids, tables and the as-of window their decisions hold for
    /// (events, value entries and cards are taken by their own readers).
    fileprivate func resumeTaskKinds(_ resumed: ReadingResumption) -> KeptInstances {
        let (tasks, kinds, invalid, window) = resumed.take { kept in
            (
                taking(&kept.drop.tasks, leaving: []), kept.drop.taskKinds, kept.drop.invalidSchemaRows,
                kept.drop.asOfWindow
            )
        }
        drop.tasks = tasks
        drop.taskKinds = kinds
        drop.invalidSchemaRows = invalid
        drop.asOfWindow = drop.asOfWindow.merged(with: window)
        let kept = resumed.take { kept in
            // The ids' keys are the table's arena: taken with it.
            _ = taking(&kept.drop.taskIDs, leaving: ByteStrings())
            return (
                taking(&kept.tables.taskIDs, leaving: ByteKeyTable()), taking(&kept.tables.taskOfID, leaving: []),
                taking(&kept.tables.acceptedInstanceKeys, leaving: []),
                taking(&kept.tables.unknownTasks, leaving: FingerprintSet()),
                KeptInstances(
                    keys: taking(&kept.tables.instanceKeys, leaving: FingerprintMap()),
                    candidates: kept.tables.instanceCandidates, tasks: kept.tables.instanceTasks),
                kept.tables.zonesAfterInstances
            )
        }
        taskIDs = kept.0
        taskOfID = kept.1
        acceptedInstanceKeys = kept.2
        tables.unknownTasks = kept.3
        tables.zonesAfterInstances = kept.5
        return kept.4
    }

    /// What a reading of the whole drop would decide differently from the
    /// kept reading because of the new instance rows: a kept task's id or
    /// idempotency key again (a re-export: last wins, so the kept row's
    /// fate changes), a zone the kept instances did not name (a whole
    /// reading gives it an earlier id), a task id a kept row was rejected
    /// for not knowing.
    private func checkResumable(_ candidates: [InstanceCandidate], keptIDs: Int, keptKeys: Int) throws {
        let kept = tables
        for candidate in candidates {
            guard Int(candidate.idKey) >= keptIDs else {
                throw ResumeRefusal(reason: "a new instance file re-exports a task the kept reading holds")
            }
            guard Int(candidate.idempotencyKey) >= keptKeys else {
                throw ResumeRefusal(
                    reason: "a new instance file holds the idempotency key of a task the kept reading holds")
            }
            guard candidate.zone < 0 || Int(candidate.zone) < kept.zonesAfterInstances else {
                throw ResumeRefusal(reason: "a new instance file names a zone the kept instances do not")
            }
        }
        for index in keptIDs..<taskIDs.count
        where kept.unknownTasks.contains(ByteKeyTable.hash(taskIDs.key(Int32(index)))) {
            throw ResumeRefusal(reason: "a new task makes a row the kept reading rejected (unknown_task) valid")
        }
    }

    /// Puts the kept log tasks back after the new instance tasks, moving
    /// every reference to them by as many places (kept events and value
    /// entries as their readers take them, `logTaskShift`); refuses when
    /// the new instances move a user's fallback zone (§1.2), which places
    /// kept log tasks, journal entries and health samples.
    private func resumeLogTasks(
        _ logTasks: [DailyTask], first: Int, zones: [String: ZoneID], keptIDs: Int
    ) throws {
        guard drop.latestInstanceZone == zones else {
            throw ResumeRefusal(reason: "a new instance moves a user's zone (their latest task instance's)")
        }
        let shift = drop.tasks.count - first
        if shift > 0 && !logTasks.isEmpty {
            for index in 0..<keptIDs {
                if case .accepted(let task, let relationship) = taskOfID[index], task >= first {
                    taskOfID[index] = .accepted(task + shift, relationship: relationship)
                }
            }
            logTaskShift = (first, shift)
        }
        drop.tasks.reserveCapacity(drop.tasks.count + logTasks.count)
        for var task in logTasks {
            task.order += shift
            drop.tasks.append(task)
        }
    }
}

/// An instance row's typed values: everything its decision needs that no
/// state is needed for, made once, on the file's preparing thread (see
/// `CSVSource.read`). A nil value (or `instantsValid` false) is a field that
/// is missing or failed to parse (the row's accessor then says why, in
/// column order) or a key whose parts are not all there.
struct InstanceFields: Sendable {
    var idHash: UInt64?
    var relationship: Int?
    var date: LocalDate?
    var status: TaskStatus?
    var instantsValid = false
    /// The idempotency key, when relationship, date, kind and source key are all there.
    var key: UInt64?
    /// Fingerprints of the time zone name, task kind and action schema
    /// texts (nil for NULL): the reading thread resolves each text by it.
    var zone: UInt64?
    var kind: UInt64?
    var schema: UInt64?

    static func preparing(_ relationships: RelationshipLookup) -> @Sendable (CSVPeek) -> InstanceFields {
        { row in
            // Fields read in place (`CSVPeek`): no slice of the batch's
            // buffer to retain and release.
            var fields = InstanceFields()
            fields.idHash = row.hash(InstanceColumn.id)
            fields.relationship = row.relationship(InstanceColumn.relationshipID, in: relationships)
            fields.date = row.date(InstanceColumn.localDate)
            fields.status = row.status(InstanceColumn.status)
            fields.zone = row.fingerprint(InstanceColumn.timezone)
            fields.kind = row.fingerprint(InstanceColumn.taskKind)
            fields.schema = row.fingerprint(InstanceColumn.actionSchema)
            fields.instantsValid = InstanceColumn.checkedInstants.allSatisfy { column in
                row.field(column) == nil || row.instant(column) != nil
            }
            if let relationship = fields.relationship, let date = fields.date,
                let kind = row.field(InstanceColumn.taskKind),
                let sourceKey = row.field(InstanceColumn.sourceKey)
            {
                fields.key = DropIngestor.idempotencyKey(
                    relationship, date, row.bytes, kind: kind, sourceKey: sourceKey)
            }
            return fields
        }
    }
}
