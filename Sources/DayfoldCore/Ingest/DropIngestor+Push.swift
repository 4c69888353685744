/// push/ and subjects/notification_preferences.csv (SPEC §11.1): each row's
/// fate in §9's order — rejected, ignored for T, duplicate, accepted — and
/// the ids resolved once: a delivery names its kept intent (after the
/// idempotency-key merge) and installation, a receipt its kept delivery.
///
/// Ids are fingerprinted (64 bits, as the instances' idempotency keys are,
/// on the file's preparing thread: `IntentFields`):
/// per id a dense index in a `FingerprintMap` — one probe, no bytes kept —
/// and per index what the later kinds need (the kept row, or that only
/// ignored rows had it), so a row costs no String and no Dictionary of
/// Strings. The kept rows' id bytes are kept for the outputs.
/// Push files are read after every other kind: their rows name
/// relationships, tasks and users' zones, all known by then.
extension DropIngestor {
    /// Quiet hours. Same (`user_id`, `effective_from` as an instant): the last row wins.
    func readNotificationPreferences() throws {
        // A resumed reading keeps the kept file's (`DropLayout.resumed` lists it only when new).
        if let resumed = resumption {
            installKept(NotificationPreferenceColumn.kind)
            drop.notificationPreferences = resumed.take { $0.drop.notificationPreferences }
            return
        }
        guard let file = layout.notificationPreferences else { return }
        typealias Column = NotificationPreferenceColumn
        var candidates: [(key: String, account: Int, value: (String, NotificationPreference))] = []
        try readCSV(file, Column.self) { row, account in
            let user = row.text(Column.userID)
            let from = row.instant(Column.effectiveFrom)
            let start = row.clockTime(Column.quietStart)
            let end = row.clockTime(Column.quietEnd)
            guard row.rejectReason == nil, let user, let from else { return }
            candidates.append(
                (
                    "\(user)|\(from.instant.micros)", account,
                    (user, NotificationPreference(effectiveFrom: from.instant, quietStart: start, quietEnd: end))
                ))
        }
        var byUser: [String: [NotificationPreference]] = [:]
        for (user, preference) in lastWins(candidates) { byUser[user, default: []].append(preference) }
        // One row per instant is left, so the order by instant is total.
        drop.notificationPreferences = byUser.mapValues { $0.sorted { $0.effectiveFrom < $1.effectiveFrom } }
    }

    /// The four push kinds, in the order their rows refer to each other.
    func readPush() throws {
        guard layout.hasPushFolder else { return }
        // A resumed reading starts from the kept push rows and tables, and
        // reads the new intents, deliveries and receipts (installations are
        // a state export: a new file of them is a reason to read whole,
        // `DropLayout.resumed`).
        var push = PushExports()
        if let resumed = resumption {
            let kept = resumed.take { kept in
                (
                    taking(&kept.drop.push, leaving: nil),
                    taking(&kept.tables.push, leaving: PushReadingTables())
                )
            }
            push = kept.0 ?? PushExports()
            tables.push = kept.1
        }
        let installationIDs = try readInstallations(into: &push)
        let intents = try readIntents(into: &push)
        let deliveries = try readDeliveries(into: &push, intents: intents, installationIDs: installationIDs)
        try readReceipts(into: &push, deliveries: deliveries)
        // Quiet hours by push user: only users push rows name are looked up.
        push.preferences = [[NotificationPreference]](repeating: [], count: push.users.count)
        for (user, history) in drop.notificationPreferences {
            if let index = push.users.find(Array(user.utf8)[...]) { push.preferences[Int(index)] = history }
        }
        drop.push = push
    }

    /// Same `id`: the last row wins (a state export). Returns the kept
    /// installations' ids, interned in their order (an id's index is its installation's).
    private func readInstallations(into push: inout PushExports) throws -> ByteKeyTable {
        typealias Column = PushInstallationColumn
        installKept(Column.kind)
        if resumption != nil {
            var ids = ByteKeyTable()
            for installation in push.installations { _ = ids.intern(Array(installation.id.utf8)[...]) }
            return ids
        }
        var candidates: [(id: String, account: Int, value: PushInstallation)] = []
        for file in layout.pushInstallations {
            try readCSV(file, Column.self) { row, account in
                let id = row.text(Column.id)
                let user = row.slice(Column.userID)
                if user == nil { row.failMissing(Column.userID) }
                let surface = row.choiceIndex(Column.appSurface, .appSurface)
                let platform = row.choiceIndex(Column.platform, .platform)
                let provider = row.choiceIndex(Column.provider, .pushProvider)
                let version = row.text(Column.appVersion)
                var zone: ZoneID?
                let zoneName = row.text(Column.timezone)
                if let zoneName {
                    zone = drop.zones.id(named: zoneName)
                    if zone == nil { row.fail("unknown_timezone:timezone") }
                }
                let lastSeen = row.instant(Column.lastSeenAt)
                let revoked = row.instant(Column.revokedAt)
                guard row.rejectReason == nil, let id, let user, let surface, let platform, let provider else { return }
                candidates.append(
                    (
                        id, account,
                        PushInstallation(
                            id: id, user: push.users.intern(user).index,
                            appSurface: PushAppSurface.allCases[surface], platform: PushPlatform.allCases[platform],
                            provider: PushProvider.allCases[provider], appVersion: version, zone: zone,
                            zoneName: zoneName,
                            lastSeenAt: lastSeen?.instant,
                            // Revoked after T: not yet revoked at T.
                            revokedAt: revoked.flatMap { isAfterAsOf($0.instant) ? nil : $0.instant })
                    ))
            }
        }
        // Installations are few (one per device): Strings are fine here.
        var last: [String: Int] = [:]
        for (position, candidate) in candidates.enumerated() { last[candidate.id] = position }
        var ids = ByteKeyTable()
        for (position, candidate) in candidates.enumerated() {
            guard last[candidate.id] == position else {
                count(candidate.account, .duplicate)
                continue
            }
            count(candidate.account, .accepted)
            _ = ids.intern(Array(candidate.id.utf8)[...])
            push.installations.append(candidate.value)
        }
        return ids
    }

    /// Same `id`: the last row wins; then the same `idempotency_key` under
    /// another id: the last wins, and the other's deliveries are the kept one's.
    private func readIntents(into push: inout PushExports) throws -> PushIDs {
        typealias Column = PushIntentColumn
        let zoneOfInstallationUser = Self.installationZones(push.installations, users: push.users.count)
        struct Candidate {
            var account: Int
            var id: Int
            var key: Int32
            var idBytes: Range<Int>
            var intent: PushIntent
        }
        var candidates: [Candidate] = []
        // The candidates' id bytes, back to back (the kept ones become `intentIDs`).
        var candidateIDs: [UInt8] = []
        installKept(Column.kind)
        let resumed = resumption != nil
        // A resumed reading's kept tables are moved here, not copied: left
        // referenced in `tables` too, the first new id copied each whole.
        var ids = resumed ? taking(&self.tables.push.intentIDs, leaving: PushIDs()) : PushIDs()
        var keys = resumed ? taking(&self.tables.push.intentKeys, leaving: FingerprintMap()) : FingerprintMap()
        let (keptIDs, keptKeys) = (ids.kept.count, keys.count)
        // A new row with a kept id: a whole reading would decide the kept one again.
        var touchesKept = false
        // Sized from the files up front: regrowing the id tables re-inserted
        // every key and regrowing the arrays copied them (a quarter of this
        // loop's time on a 1 GB drop). Intent rows are about 325 bytes in the
        // exports seen (400 guessed low by a fifth: one late regrowth of
        // both tables, most of this loop's page faults).
        let rows = expectedRows(layout.pushIntents, bytesPerRow: 330)
        ids.reserve(rows)
        keys.reserve(rows)
        candidates.reserveCapacity(roomForRows(layout.pushIntents, shortestRow: 200))
        candidateIDs.reserveCapacity(36 * rows)
        var recipientZones: [Int32: UserZones.PushZoneSource] = [:]
        // Read per row: a copied `Relationship` retained and released its Strings.
        let endedOnOf = drop.relationships.map(\.endedOn)
        let prepare = IntentFields.preparing(relationshipLookup, taskIDs: taskIDs, taskOfID: taskOfID)
        // The tables the loop and its look-ahead share (moved in, so a
        // write copies nothing; moved back out after the loop).
        let tables = LoopState((ids: consume ids, keys: consume keys))
        let ahead: (IntentFields) -> Void = { row in
            if let id = row.id { tables.value.ids.expectLookup(id) }
            if let key = row.idempotencyKey { tables.value.keys.expectLookup(key) }
        }
        for file in layout.pushIntents {
            try readCSV(file, Column.self, prepare: prepare, ahead: ahead) { row, account, prepared in
                let id = prepared.id
                if id == nil { row.failMissing(Column.id) }
                // Fields are read in place (`withField`): a slice retained and
                // released the record's buffer.
                let hasRecipient = row.has(Column.recipientUserID)
                if !hasRecipient { row.failMissing(Column.recipientUserID) }
                let category = row.choiceIndex(Column.category, .pushCategory)
                let key = prepared.idempotencyKey
                if key == nil { row.failMissing(Column.idempotencyKey) }
                let scheduled = prepared.scheduledFor ?? row.instant(Column.scheduledFor)
                let status = row.choiceIndex(Column.status, .intentStatus)
                if !prepared.unusedInstantsValid {
                    _ = row.instant(Column.expiresAt)
                    _ = row.instant(Column.cancelledAt)
                }
                let created = prepared.createdAt ?? row.instant(Column.createdAt)
                let relationship = prepared.relationship
                if relationship == nil, row.has(Column.relationshipID) { row.fail("unknown_relationship") }
                guard row.rejectReason == nil, let id, hasRecipient, let category, let key, let scheduled,
                    let status
                else { return }
                let user = row.withField(Column.recipientUserID) { push.users.intern($0).index }
                let idIndex = tables.value.ids.intern(id)
                if resumed && (idIndex < keptIDs || self.tables.push.unknownIntents.contains(id)) { touchesKept = true }
                // Ignored: created after T, or scheduled (the recipient's
                // local date) after its relationship's `ended_on`.
                var ignored = created.map { isAfterAsOf($0.instant) } ?? false
                if !ignored, let relationship, let endedOn = endedOnOf[relationship] {
                    let source = recipientZones[user] ?? drop.userZones.pushSource(push.user(user))
                    recipientZones[user] = source
                    // A recipient first named here has no installation (and no zone from one).
                    let installationZone =
                        Int(user) < zoneOfInstallationUser.count ? zoneOfInstallationUser[Int(user)] : nil
                    let zone = source.zone(at: scheduled.instant, installationZone: installationZone)
                    ignored = drop.zones.localDate(zone, scheduled.instant) > endedOn
                }
                if ignored {
                    row.fate = .ignored
                    tables.value.ids.ignored(idIndex, for: user)
                    return
                }
                let start = candidateIDs.count
                row.withField(Column.id) { ByteCopy.append($0, into: &candidateIDs) }
                candidates.append(
                    Candidate(
                        account: account, id: idIndex, key: tables.value.keys.intern(key).index,
                        idBytes: start..<candidateIDs.count,
                        intent: PushIntent(
                            id: -1, recipient: user, category: PushCategory.allCases[category],
                            status: Choices.intentStatusOfChoice[status], scheduledFor: scheduled.instant,
                            relationship: relationship, remindsTask: prepared.remindsTask, task: prepared.task)))
                // A kept copy of the id: deliveries naming it are not ignored.
                tables.value.ids.candidate(idIndex)
            }
        }
        ids = tables.value.ids
        keys = tables.value.keys
        tables.value = (PushIDs(), FingerprintMap())
        if touchesKept || candidates.contains(where: { Int($0.key) < keptKeys }) {
            throw ResumeRefusal(
                reason: "a new intent file holds an intent id or idempotency key the kept reading holds, or one a kept"
                    + " delivery was rejected for not knowing")
        }
        var lastOfID = [Int32](repeating: -1, count: ids.kept.count)
        for (position, candidate) in candidates.enumerated() { lastOfID[candidate.id] = Int32(position) }
        var lastOfKey = [Int32](repeating: -1, count: keys.count)
        for (position, candidate) in candidates.enumerated() where lastOfID[candidate.id] == Int32(position) {
            lastOfKey[Int(candidate.key)] = Int32(position)
        }
        var indexOfPosition = [Int32](repeating: -1, count: candidates.count)
        push.intents.reserveCapacity(candidates.count)
        for (position, candidate) in candidates.enumerated() {
            guard lastOfKey[Int(candidate.key)] == Int32(position), lastOfID[candidate.id] == Int32(position) else {
                count(candidate.account, .duplicate)
                continue
            }
            count(candidate.account, .accepted)
            indexOfPosition[position] = Int32(push.intents.count)
            var intent = candidate.intent
            intent.id = push.intentIDs.append(candidateIDs[candidate.idBytes])
            push.intents.append(intent)
        }
        for candidate in candidates {
            let winner = Int(lastOfID[candidate.id])
            let kept = Int(lastOfKey[Int(candidates[winner].key)])
            ids.kept[candidate.id] = indexOfPosition[kept]
        }
        if options.keepsReadingTables {
            self.tables.push.intentIDs = ids
            self.tables.push.intentKeys = keys
        }
        return ids
    }

    /// Per push user, the zone of the installation seen last (SPEC §11.1's
    /// fallback for an intent, which names no installation): the greatest
    /// `last_seen_at`, the later row on a tie.
    private static func installationZones(_ installations: [PushInstallation], users: Int) -> [ZoneID?] {
        var chosen = [(seen: Instant?, zone: ZoneID)?](repeating: nil, count: users)
        for installation in installations {
            guard let zone = installation.zone else { continue }
            if let known = chosen[Int(installation.user)], let seen = known.seen,
                installation.lastSeenAt.map({ $0 < seen }) ?? true
            {
                continue
            }
            chosen[Int(installation.user)] = (installation.lastSeenAt, zone)
        }
        return chosen.map { $0?.zone }
    }

    /// Same `id`: the last row wins; then the same (kept intent,
    /// installation): the last wins, and the other's receipts are the kept one's.
    private func readDeliveries(
        into push: inout PushExports, intents: PushIDs, installationIDs: ByteKeyTable
    ) throws -> PushIDs {
        typealias Column = PushDeliveryColumn
        struct Candidate {
            var account: Int
            var id: Int
            var idBytes: Range<Int>
            var delivery: PushDelivery
        }
        var candidates: [Candidate] = []
        var candidateIDs: [UInt8] = []
        installKept(Column.kind)
        let resumed = resumption != nil
        var ids = resumed ? taking(&tables.push.deliveryIDs, leaving: PushIDs()) : PushIDs()
        let keptIDs = ids.kept.count
        var touchesKept = false
        let keepsTables = options.keepsReadingTables
        // Delivery rows are about 160 bytes (see `readIntents`).
        let rows = expectedRows(layout.pushDeliveries, bytesPerRow: 165)
        ids.reserve(rows)
        candidates.reserveCapacity(roomForRows(layout.pushDeliveries, shortestRow: 100))
        candidateIDs.reserveCapacity(36 * rows)
        // Per installation its user, read per row (a copied installation retained its Strings).
        let installationUsers = push.installations.map(\.user)
        let recipients = push.intents.map(\.recipient)
        let prepare = DeliveryFields.preparing()
        // The delivery ids the loop and its look-ahead share (see `readIntents`).
        let table = LoopState(consume ids)
        let intentsAhead = LoopState(intents)
        let ahead: (DeliveryFields) -> Void = { row in
            if let id = row.id { table.value.expectLookup(id) }
            if let intent = row.intentID { intentsAhead.value.expectLookup(intent) }
        }
        for file in layout.pushDeliveries {
            try readCSV(file, Column.self, prepare: prepare, ahead: ahead) { row, account, prepared in
                let id = prepared.id
                if id == nil { row.failMissing(Column.id) }
                let intentID = prepared.intentID
                if intentID == nil { row.failMissing(Column.intentID) }
                let hasInstallation = row.has(Column.installationID)
                if !hasInstallation { row.failMissing(Column.installationID) }
                let provider = row.choiceIndex(Column.provider, .pushProvider)
                let status = row.choiceIndex(Column.status, .deliveryStatus)
                let attempts = row.integer(Column.attemptCount)
                if !prepared.unusedInstantsValid { _ = row.instant(Column.nextRetryAt) }
                // Codes are on failed rows only: their text is read then.
                let errorClass =
                    row.has(Column.lastErrorCode) ? row.text(Column.lastErrorCode).flatMap(PushErrorClass.known) : nil
                let sent = prepared.sentAt ?? row.instant(Column.sentAt)
                if !prepared.unusedInstantsValid { _ = row.instant(Column.deliveredAt) }
                let failed = prepared.failedAt ?? row.instant(Column.failedAt)
                guard row.rejectReason == nil, let id, let intentID, hasInstallation, let provider, let status
                else { return }
                let intentIndex = intents.find(intentID)
                let intent = intentIndex.flatMap(intents.keptRow)
                let ignoredRecipient = intentIndex.flatMap(intents.ignoredOwner)
                guard intent != nil || ignoredRecipient != nil else {
                    if keepsTables { _ = self.tables.push.unknownIntents.insert(intentID) }
                    return row.fail("unknown_intent")
                }
                guard let entry = row.withField(Column.installationID, { installationIDs.find($0) }) else {
                    return row.fail("unknown_installation")
                }
                let installation = Int(entry)
                let recipient = intent.map { recipients[$0] } ?? ignoredRecipient
                guard installationUsers[installation] == recipient else { return row.fail("recipient_mismatch") }
                let idIndex = table.value.intern(id)
                if resumed && (idIndex < keptIDs || self.tables.push.unknownDeliveries.contains(id)) {
                    touchesKept = true
                }
                guard let intent, !(sent.map { isAfterAsOf($0.instant) } ?? false) else {
                    row.fate = .ignored
                    table.value.ignored(idIndex, for: 0)
                    return
                }
                let start = candidateIDs.count
                row.withField(Column.id) { ByteCopy.append($0, into: &candidateIDs) }
                candidates.append(
                    Candidate(
                        account: account, id: idIndex, idBytes: start..<candidateIDs.count,
                        delivery: PushDelivery(
                            id: -1, intent: intent, installation: installation,
                            provider: PushProvider.allCases[provider], status: PushDeliveryStatus.allCases[status],
                            attemptCount: attempts, knownErrorClass: errorClass, sentAt: sent?.instant,
                            failedAt: failed?.instant)))
                table.value.candidate(idIndex)
            }
        }
        ids = table.value
        table.value = PushIDs()
        var lastOfID = [Int32](repeating: -1, count: ids.kept.count)
        for (position, candidate) in candidates.enumerated() { lastOfID[candidate.id] = Int32(position) }
        /// (kept intent, installation) as one integer, spread by a bijective
        /// mix (the map probes by the low bits; distinct pairs stay distinct,
        /// and none becomes 0, the map's empty slot: the mix keeps 0 at 0 and
        /// the pair is counted from 1).
        func target(_ delivery: PushDelivery) -> UInt64 {
            var key = (UInt64(delivery.intent) << 32 | UInt64(delivery.installation)) + 1
            key = (key ^ (key >> 30)) &* 0xBF58_476D_1CE4_E5B9
            key = (key ^ (key >> 27)) &* 0x94D0_49BB_1331_11EB
            return key ^ (key >> 31)
        }
        var lastOfTarget = FingerprintMap()
        lastOfTarget.reserve(candidates.count)
        for (position, candidate) in candidates.enumerated() where lastOfID[candidate.id] == Int32(position) {
            let key = target(candidate.delivery)
            if resumed && tables.push.deliveryTargets.contains(key) { touchesKept = true }
            if keepsTables { _ = tables.push.deliveryTargets.insert(key) }
            lastOfTarget[key] = Int32(position)
        }
        if touchesKept {
            throw ResumeRefusal(
                reason: "a new delivery file holds a delivery id or (intent, installation) the kept reading holds, or"
                    + " one a kept receipt was rejected for not knowing")
        }
        var indexOfPosition = [Int32](repeating: -1, count: candidates.count)
        push.deliveries.reserveCapacity(candidates.count)
        for (position, candidate) in candidates.enumerated() {
            guard lastOfTarget[target(candidate.delivery)] == Int32(position),
                lastOfID[candidate.id] == Int32(position)
            else {
                count(candidate.account, .duplicate)
                continue
            }
            count(candidate.account, .accepted)
            indexOfPosition[position] = Int32(push.deliveries.count)
            var delivery = candidate.delivery
            delivery.id = push.deliveryIDs.append(candidateIDs[candidate.idBytes])
            push.deliveries.append(delivery)
        }
        for candidate in candidates {
            let winner = Int(lastOfID[candidate.id])
            if let kept = lastOfTarget[target(candidates[winner].delivery)] {
                ids.kept[candidate.id] = indexOfPosition[Int(kept)]
            }
        }
        if keepsTables { tables.push.deliveryIDs = ids }
        return ids
    }

    /// Append-only: the same `id` again is a duplicate (the first wins).
    private func readReceipts(into push: inout PushExports, deliveries: PushIDs) throws {
        typealias Column = PushReceiptColumn
        installKept(Column.kind)
        // A new receipt with a kept one's id is a duplicate, as in a whole reading (the first wins).
        var seen = resumption != nil ? taking(&tables.push.receiptIDs, leaving: FingerprintMap()) : FingerprintMap()
        let keepsTables = options.keepsReadingTables
        seen.reserve(expectedRows(layout.pushReceipts, bytesPerRow: 170))
        push.receipts.reserveCapacity(roomForRows(layout.pushReceipts, shortestRow: 90))
        let prepare = ReceiptFields.preparing()
        // The receipt ids seen, shared by the loop and its look-ahead (see `readIntents`).
        let seenIDs = LoopState(consume seen)
        let deliveriesAhead = LoopState(deliveries)
        let ahead: (ReceiptFields) -> Void = { row in
            if let id = row.id { seenIDs.value.expectLookup(id) }
            if let delivery = row.deliveryID { deliveriesAhead.value.expectLookup(delivery) }
        }
        for file in layout.pushReceipts {
            try readCSV(file, Column.self, prepare: prepare, ahead: ahead) { row, _, prepared in
                let hasID = row.has(Column.id)
                if !hasID { row.failMissing(Column.id) }
                let deliveryID = prepared.deliveryID
                if deliveryID == nil { row.failMissing(Column.deliveryID) }
                let status = row.choiceIndex(Column.receiptStatus, .receiptStatus)
                let received = prepared.receivedAt ?? row.instant(Column.receivedAt)
                _ = row.choiceIndex(Column.provider, .pushProvider)
                let code = row.has(Column.providerErrorCode) ? row.text(Column.providerErrorCode) : nil
                guard row.rejectReason == nil, hasID, let deliveryID, let status, let received else { return }
                let index = deliveries.find(deliveryID)
                let delivery = index.flatMap(deliveries.keptRow)
                guard delivery != nil || index.flatMap(deliveries.ignoredOwner) != nil else {
                    if keepsTables { _ = self.tables.push.unknownDeliveries.insert(deliveryID) }
                    return row.fail("unknown_delivery")
                }
                guard let delivery, !isAfterAsOf(received.instant) else {
                    row.fate = .ignored
                    return
                }
                guard let print = prepared.id, seenIDs.value.intern(print).isNew else {
                    row.fate = .duplicate
                    return
                }
                row.fate = .accepted
                push.receipts.append(
                    PushReceipt(
                        id: row.withField(Column.id) { push.receiptIDs.append($0) }, delivery: delivery,
                        ok: status == 0,
                        receivedAt: received.instant, errorClass: PushErrorClass.of(code)))
            }
        }
        if keepsTables { tables.push.receiptIDs = seenIDs.value }
    }
}

/// The ids of one push kind, fingerprinted, and per id what the kinds
/// that name it need: the kept row it resolves to, or — when its only
/// rows were ignored for T — whom they were for (rows naming it are
/// ignored too, not rejected).
struct PushIDs {
    var table = FingerprintMap()
    /// The id's kept row (`pending` until the dedup has decided; -1: none).
    var kept: [Int32] = []
    /// For an id whose only rows were ignored: an intent's recipient (0
    /// for a delivery); -1 otherwise.
    var ignoredFor: [Int32] = []
    static let pending: Int32 = -2

    /// The index of the id with fingerprint `print`, added when new.
    mutating func intern(_ print: UInt64) -> Int {
        let index = Int(table.intern(print).index)
        if index == kept.count {
            kept.append(-1)
            ignoredFor.append(-1)
        }
        return index
    }

    /// The index of an id seen before, nil otherwise.
    func find(_ print: UInt64) -> Int? { table[print].map { Int($0) } }

    /// A row a few rows on will look up the id with fingerprint `print`.
    mutating func expectLookup(_ print: UInt64) { table.expectLookup(print) }

    /// A row of the id was ignored (it counts only while no row of the id is kept).
    mutating func ignored(_ index: Int, for owner: Int32) {
        if kept[index] == -1 { ignoredFor[index] = owner }
    }

    /// A row of the id takes part in the dedup.
    mutating func candidate(_ index: Int) {
        kept[index] = Self.pending
        ignoredFor[index] = -1
    }

    /// The kept row an id resolves to, if any.
    func keptRow(_ index: Int) -> Int? { kept[index] >= 0 ? Int(kept[index]) : nil }

    /// Whom the ignored rows of an id were for, if its only rows were ignored.
    func ignoredOwner(_ index: Int) -> Int32? { ignoredFor[index] >= 0 ? ignoredFor[index] : nil }

    mutating func reserve(_ rows: Int) {
        table.reserve(rows)
        kept.reserveCapacity(rows)
        ignoredFor.reserveCapacity(rows)
    }
}

extension PushIDs {
    func archive(into out: inout BinaryArchiveWriter) throws(SystemCallError) {
        try table.archive(into: &out)
        try out.write(plain: kept)
        try out.write(plain: ignoredFor)
    }

    init(from reader: inout BinaryArchiveReader) throws(BinaryArchiveError) {
        self.init()
        table = try FingerprintMap(from: &reader)
        kept = try reader.readPlainArray(Int32.self)
        ignoredFor = try reader.readPlainArray(Int32.self)
        guard kept.count == table.count, ignoredFor.count == table.count else {
            throw BinaryArchiveError(reason: "a stored push id table does not agree with itself")
        }
    }
}
