/// tasks/status_events and tasks/value_entries: rows that name a task, with
/// the same reject → ignore → duplicate → accepted path (SPEC §1.3, §9).
extension DropIngestor {
    func readStatusEvents() throws {
        installKept(StatusEventColumn.kind)
        // Shared by the loop and its look-ahead (`LoopState`). A resumed
        // reading's new rows meet the kept rows' keys, after the kept rows.
        var kept = TaskRowDeduplicator()
        if let resumed = resumption {
            var taken = resumed.take { kept in
                (
                    taking(&kept.drop.events, leaving: []), taking(&kept.drop.eventIDs, leaving: ByteStrings()),
                    kept.drop.eventReasons, taking(&kept.tables.events, leaving: TaskRowDeduplicator())
                )
            }
            // Moved out of `taken`, so the shift below writes in place.
            drop.events = taking(&taken.0, leaving: [])
            drop.eventIDs = taking(&taken.1, leaving: ByteStrings())
            drop.eventReasons = taken.2
            kept = taking(&taken.3, leaving: TaskRowDeduplicator())
            if logTaskShift.by > 0 {
                for index in drop.events.indices { drop.events[index].task = shifted(drop.events[index].task) }
            }
        }
        let dedup = LoopState(consume kept)
        dedup.value.reserve(expectedRows(layout.statusEvents, bytesPerRow: 300))
        if options.retainRows {
            let room = roomForRows(layout.statusEvents, shortestRow: 150)
            drop.events.reserveCapacity(room)
            drop.eventIDs.reserve(count: room, bytes: room * 40)
        }
        // Skip reasons are a small vocabulary: each is kept once, and events
        // hold its index.
        var eventReasons = ByteInterner(strings: drop.eventReasons)
        let prepare = TaskRowFields.preparing(relationshipLookup, statusColumn: StatusEventColumn.toStatus)
        let ahead = { self.expectLookups($0, &dedup.value) }
        // An as-of series' ingest keeps every event its duplicate tests see (`AsOfCandidates`).
        let keepsCandidates = drop.asOfCandidates != nil
        var candidates = TaskRowCandidates<StatusEvent>()
        var candidateIDs = drop.asOfCandidates?.eventIDs ?? ByteStrings()
        drop.asOfCandidates?.eventIDs = ByteStrings()
        for file in layout.statusEvents {
            try readCSV(file, StatusEventColumn.self, prepare: prepare, ahead: ahead) {
                row, account, prepared in
                // A nil prepared value is a field that failed: the row's
                // accessor (`row.status`, `row.instant`) records why.
                guard let idKey = referencesTask(&row, prepared),
                    let status = prepared.status ?? row.status(StatusEventColumn.toStatus),
                    let occurred = prepared.instant ?? row.instant(StatusEventColumn.occurredAt)
                else { return }
                guard let task = candidateTask(at: occurred.instant, &row, prepared) else { return }
                // Fields are read in place (`withField`): a slice retained and
                // released the record's buffer.
                func event(_ ids: inout ByteStrings) -> StatusEvent? {
                    guard row.has(StatusEventColumn.id) else { return nil }
                    let reason =
                        row.has(StatusEventColumn.reason)
                        ? row.withField(StatusEventColumn.reason) { eventReasons.intern($0) } : nil
                    return StatusEvent(
                        id: row.withField(StatusEventColumn.id) { ids.append($0) }, task: task, toStatus: status,
                        occurredAt: occurred.instant, offsetSeconds: occurred.offsetSeconds, reason: reason)
                }
                if keepsCandidates, let candidate = event(&candidateIDs) {
                    candidates.append(
                        candidate, at: occurred.instant, idKey: idKey, retryKey: prepared.retryKey)
                }
                guard isFirst(idKey, &row, &dedup.value, prepared) else { return }
                if options.retainRows, let accepted = event(&drop.eventIDs) { drop.events.append(accepted) }
            }
        }
        drop.asOfCandidates?.eventIDs = candidateIDs
        drop.eventReasons = eventReasons.strings
        if options.keepsReadingTables { tables.events = dedup.value }
        drop.asOfCandidates?.events = candidates
    }

    /// Checks the leading fields events and value entries share: id, task
    /// id, relationship id (columns 0–2); a missing one rejects the row.
    /// Returns the row's id key (made on the preparing thread, for a row
    /// with an id). Their bytes are taken where they are used: holding the
    /// three together kept them in an aggregate of optionals, destroyed
    /// through the runtime for every row.
    private func referencesTask(_ row: inout CSVRow, _ prepared: TaskRowFields) -> UInt64? {
        guard let idKey = prepared.idKey else {
            row.failMissing(StatusEventColumn.id)
            return nil
        }
        guard row.has(StatusEventColumn.dailyTaskInstanceID) else {
            row.failMissing(StatusEventColumn.dailyTaskInstanceID)
            return nil
        }
        guard row.has(StatusEventColumn.relationshipID) else {
            row.failMissing(StatusEventColumn.relationshipID)
            return nil
        }
        return idKey
    }

    /// The decisions an event or value entry whose fields are valid takes
    /// before its duplicate test: unknown task / relationship mismatch
    /// (rejected) → task ignored or instant after as-of (ignored). Returns
    /// the task index when the row goes on to the duplicate test.
    private func candidateTask(at instant: Instant, _ row: inout CSVRow, _ prepared: TaskRowFields) -> Int? {
        guard let decision = resolveTask(&row, prepared) else { return nil }
        guard let task = decision, !isAfterAsOf(instant) else {
            row.fate = .ignored
            return nil
        }
        return task
    }

    /// The duplicate test of a row `candidateTask` let through: same id or
    /// same offline-retry key as an earlier accepted row (duplicate, the
    /// first in file order is kept) → accepted, its keys claimed.
    private func isFirst(
        _ idKey: UInt64, _ row: inout CSVRow, _ dedup: inout TaskRowDeduplicator, _ prepared: TaskRowFields
    ) -> Bool {
        // Keys are kept as 64-bit fingerprints (as health samples are): one
        // probe of a flat table each, 8 bytes per accepted row.
        guard dedup.claim(idKey: idKey, retryKey: prepared.retryKey) else {
            row.fate = .duplicate
            return false
        }
        row.fate = .accepted
        return true
    }

    /// Tells the tables which keys a row's decision will look up, a few rows
    /// ahead of it: its task id, its own id and its retry key.
    private func expectLookups(_ row: TaskRowFields, _ dedup: inout TaskRowDeduplicator) {
        if let taskHash = row.taskHash { taskIDs.expectLookup(hash: taskHash) }
        if let idKey = row.idKey { dedup.ids.expectLookup(idKey) }
        if let retryKey = row.retryKey { dedup.retries.expectLookup(retryKey) }
    }

    /// Looks up the task a row refers to: nil when the row is rejected
    /// (unknown task, relationship mismatch); `.some(nil)` when the task is ignored.
    private func resolveTask(_ row: inout CSVRow, _ prepared: TaskRowFields) -> Int?? {
        let found =
            row.has(StatusEventColumn.dailyTaskInstanceID)
            ? row.withField(StatusEventColumn.dailyTaskInstanceID) { taskIDs.find($0, hash: prepared.taskHash) } : nil
        let reference = found.map { taskOfID[Int($0)] } ?? .none
        let owner: Int
        switch reference {
        case .none:
            row.fail("unknown_task")
            if options.keepsReadingTables, let hash = prepared.taskHash { _ = tables.unknownTasks.insert(hash) }
            return nil
        case .accepted(_, let relationship): owner = relationship
        case .ignored(let relationship): owner = relationship
        }
        guard prepared.relationship == owner else {
            row.fail("relationship_mismatch")
            return nil
        }
        if case .accepted(let index, _) = reference { return .some(index) }
        return .some(nil)
    }

    func readValueEntries() throws {
        installKept(ValueEntryColumn.kind)
        var kept = TaskRowDeduplicator()
        if let resumed = resumption {
            var taken = resumed.take { kept in
                (
                    taking(&kept.drop.valueEntries, leaving: []),
                    taking(&kept.tables.values, leaving: TaskRowDeduplicator())
                )
            }
            // Moved out of `taken`, so the shift below writes in place.
            drop.valueEntries = taking(&taken.0, leaving: [])
            kept = taking(&taken.1, leaving: TaskRowDeduplicator())
            if logTaskShift.by > 0 {
                for index in drop.valueEntries.indices {
                    drop.valueEntries[index].task = shifted(drop.valueEntries[index].task)
                }
            }
        }
        let dedup = LoopState(consume kept)
        dedup.value.reserve(expectedRows(layout.valueEntries, bytesPerRow: 240))
        if options.retainRows { drop.valueEntries.reserveCapacity(roomForRows(layout.valueEntries, shortestRow: 120)) }
        let prepare = TaskRowFields.preparing(relationshipLookup, numberColumn: ValueEntryColumn.value)
        let ahead = { self.expectLookups($0, &dedup.value) }
        let keepsCandidates = drop.asOfCandidates != nil
        var candidates = TaskRowCandidates<ValueEntry>()
        for file in layout.valueEntries {
            try readCSV(file, ValueEntryColumn.self, prepare: prepare, ahead: ahead) {
                row, account, prepared in
                guard let idKey = referencesTask(&row, prepared) else { return }
                if !prepared.numberValid { _ = row.number(ValueEntryColumn.value) }
                let recorded = prepared.instant ?? row.instant(ValueEntryColumn.recordedAt)
                let status = row.choice(ValueEntryColumn.status, .valueEntryStatus) ?? "ACCEPTED"
                guard row.rejectReason == nil, let recorded else { return }
                guard let task = candidateTask(at: recorded.instant, &row, prepared) else { return }
                let entry = ValueEntry(
                    task: task, recordedAt: recorded.instant, offsetSeconds: recorded.offsetSeconds,
                    accepted: status == "ACCEPTED")
                if keepsCandidates {
                    candidates.append(entry, at: recorded.instant, idKey: idKey, retryKey: prepared.retryKey)
                }
                guard isFirst(idKey, &row, &dedup.value, prepared) else { return }
                if options.retainRows { drop.valueEntries.append(entry) }
            }
        }
        drop.asOfCandidates?.values = candidates
        if options.keepsReadingTables { tables.values = dedup.value }
    }
}

/// Fingerprints of the ids and offline-retry keys (relationship, device,
/// operation; NULL devices compare equal) already accepted. Events and value
/// entries have separate key spaces (SPEC §9).
struct TaskRowDeduplicator {
    var ids = FingerprintSet()
    var retries = FingerprintSet()

    /// The key of a row's id: field `column` of a row being prepared.
    static func idKey(_ row: CSVPeek, _ column: Int) -> UInt64 {
        var key = Fingerprint()
        row.combine(column, into: &key)
        return key.value
    }

    /// (relationship, device, operation) of a row being prepared (the
    /// operation is not NULL); a NULL device is its own value. The
    /// relationship by its index: a row's retry key is only checked once its
    /// relationship is known to be its task's, and indexes and ids are one
    /// to one, so no id's bytes need hashing.
    static func retryKey(_ relationship: Int, _ row: CSVPeek, device: Int, operation: Int) -> UInt64 {
        var key = Fingerprint()
        key.combine(Int64(relationship))
        row.combine(device, into: &key)
        row.combine(operation, into: &key)
        return key.value
    }

    /// The duplicate test of SPEC §1.3 for a row not ignored: false when an
    /// earlier accepted row had the same id or the same offline-retry key;
    /// otherwise the row's keys are claimed. (The one test of ingest and of
    /// an as-of series' steps, `AsOfSteps`.)
    mutating func claim(idKey: UInt64, retryKey: UInt64?) -> Bool {
        if ids.contains(idKey) { return false }
        if let retryKey, retries.contains(retryKey) { return false }
        _ = ids.insert(idKey)
        if let retryKey { _ = retries.insert(retryKey) }
        return true
    }

    /// Sizes both sets up front: most rows carry an offline-retry key too.
    mutating func reserve(_ rows: Int) {
        ids.reserve(rows)
        retries.reserve(rows)
    }
}

/// An event or value entry row's typed values: everything its decision
/// needs that no state is needed for, made once, on the file's preparing
/// thread (see `CSVSource.read`): the ids' hashes and keys, the
/// relationship, the parsed instant and status. A nil value is a field that
/// is missing or failed to parse (the row's accessor then says why, in
/// column order) or a key whose parts are not all there.
struct TaskRowFields: Sendable {
    var taskHash: UInt64?
    var relationship: Int?
    var idKey: UInt64?
    var retryKey: UInt64?
    var status: TaskStatus?
    var instant: ParsedInstant?
    var numberValid = false

    /// The leading columns (id, task, relationship, device, operation) and
    /// the instant are at the same places in status events and value
    /// entries (`StatusEventColumn.sharedWithValueEntries`; a test holds
    /// them there), so both are read through `StatusEventColumn`;
    /// `statusColumn` or `numberColumn` is the kind's own value.
    static func preparing(
        _ relationships: RelationshipLookup, statusColumn: StatusEventColumn? = nil,
        numberColumn: ValueEntryColumn? = nil
    ) -> @Sendable (CSVPeek) -> TaskRowFields {
        { row in
            // Fields read in place (`CSVPeek.field`): a slice of the batch's
            // buffer retained and released it, several times a row.
            var fields = TaskRowFields()
            fields.taskHash = row.hash(StatusEventColumn.dailyTaskInstanceID)
            fields.relationship = row.relationship(StatusEventColumn.relationshipID, in: relationships)
            fields.idKey =
                row.field(StatusEventColumn.id) == nil
                ? nil : TaskRowDeduplicator.idKey(row, StatusEventColumn.id.rawValue)
            if let relationship = fields.relationship, row.field(StatusEventColumn.clientOperationID) != nil {
                fields.retryKey = TaskRowDeduplicator.retryKey(
                    relationship, row, device: StatusEventColumn.deviceID.rawValue,
                    operation: StatusEventColumn.clientOperationID.rawValue)
            }
            fields.instant = row.instant(StatusEventColumn.occurredAt)
            if let statusColumn { fields.status = row.status(statusColumn) }
            if let numberColumn, case .value = row.number(numberColumn) { fields.numberValid = true }
            return fields
        }
    }
}
