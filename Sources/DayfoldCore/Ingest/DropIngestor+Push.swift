/// push/ and subjects/notification_preferences.csv (SPEC §11.1): each row's
/// fate in §9's order — rejected, ignored for T, duplicate, accepted — and
/// the ids resolved once: a delivery names its kept intent (after the
/// idempotency-key merge) and installation, a receipt its kept delivery.
///
/// Push files are read after every other kind: their rows name
/// relationships, tasks and users' zones, all known by then.
extension DropIngestor {
    /// Quiet hours. Same (`user_id`, `effective_from` as an instant): the last row wins.
    func readNotificationPreferences() throws {
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
        var push = PushExports()
        push.preferences = drop.notificationPreferences
        let installationOfID = try readInstallations(into: &push)
        let intents = try readIntents(into: &push)
        let deliveries = try readDeliveries(into: &push, intents: intents, installationOfID: installationOfID)
        try readReceipts(into: &push, deliveries: deliveries)
        drop.push = push
    }

    /// Same `id`: the last row wins (a state export). Returns id → index.
    private func readInstallations(into push: inout PushExports) throws -> [String: Int] {
        typealias Column = PushInstallationColumn
        var candidates: [(id: String, account: Int, value: PushInstallation)] = []
        for file in layout.pushInstallations {
            try readCSV(file, Column.self) { row, account in
                let id = row.text(Column.id)
                let user = row.text(Column.userID)
                let surface = row.choice(Column.appSurface, .appSurface)
                let platform = row.choice(Column.platform, .platform)
                let provider = row.choice(Column.provider, .pushProvider)
                let version = row.text(Column.appVersion)
                var zone: ZoneID?
                if let name = row.text(Column.timezone) {
                    zone = drop.zones.id(named: name)
                    if zone == nil { row.fail("unknown_timezone:timezone") }
                }
                let lastSeen = row.instant(Column.lastSeenAt)
                let revoked = row.instant(Column.revokedAt)
                guard row.rejectReason == nil, let id, let user, let surface, let platform, let provider else { return }
                candidates.append(
                    (
                        id, account,
                        PushInstallation(
                            id: id, userID: user, appSurface: surface, platform: platform, provider: provider,
                            appVersion: version, zone: zone, lastSeenAt: lastSeen?.instant,
                            // Revoked after T: not yet revoked at T.
                            revokedAt: revoked.flatMap { isAfterAsOf($0.instant) ? nil : $0.instant })
                    ))
            }
        }
        var last: [String: Int] = [:]
        for (position, candidate) in candidates.enumerated() { last[candidate.id] = position }
        var indexOfID: [String: Int] = [:]
        for (position, candidate) in candidates.enumerated() {
            guard last[candidate.id] == position else {
                count(candidate.account, .duplicate)
                continue
            }
            count(candidate.account, .accepted)
            indexOfID[candidate.id] = push.installations.count
            push.installations.append(candidate.value)
        }
        return indexOfID
    }

    /// What deliveries need to know of the intents read.
    private struct IntentIDs {
        /// Every id of a kept or duplicate intent → the kept intent's index.
        var kept: [String: Int] = [:]
        /// Ids whose only rows were ignored for T (or by an ended
        /// relationship), with their recipient: deliveries naming them are ignored.
        var ignoredRecipient: [String: String] = [:]
    }

    /// Same `id`: the last row wins; then the same `idempotency_key` under
    /// another id: the last wins, and the other's deliveries are the kept one's.
    private func readIntents(into push: inout PushExports) throws -> IntentIDs {
        typealias Column = PushIntentColumn
        let zoneOfInstallationUser = Self.installationZones(push.installations)
        struct Candidate {
            var account: Int
            var key: String
            var intent: PushIntent
        }
        var candidates: [Candidate] = []
        var ids = IntentIDs()
        for file in layout.pushIntents {
            try readCSV(file, Column.self) { row, account in
                let id = row.text(Column.id)
                let recipient = row.text(Column.recipientUserID)
                let category = row.choice(Column.category, .pushCategory)
                let key = row.text(Column.idempotencyKey)
                let scheduled = row.instant(Column.scheduledFor)
                let status = row.choice(Column.status, .intentStatus)
                let relationshipID = row.slice(Column.relationshipID)
                let context = row.slice(Column.sourceContext)
                let record = row.slice(Column.sourceRecordID)
                _ = row.instant(Column.expiresAt)
                _ = row.instant(Column.cancelledAt)
                let created = row.instant(Column.createdAt)
                var relationship: Int?
                if let relationshipID {
                    relationship = self.relationship(relationshipID)
                    if relationship == nil { row.fail("unknown_relationship") }
                }
                guard row.rejectReason == nil, let id, let recipient, let category, let key, let scheduled,
                    let status
                else { return }
                // Ignored: created after T, or scheduled (the recipient's
                // local date) after its relationship's `ended_on`.
                var ignored = created.map { isAfterAsOf($0.instant) } ?? false
                if !ignored, let relationship, let endedOn = drop.relationships[relationship].endedOn {
                    let zone = drop.userZones.pushZone(
                        recipient, at: scheduled.instant, installationZone: zoneOfInstallationUser[recipient])
                    ignored = drop.zones.localDate(zone, scheduled.instant) > endedOn
                }
                if ignored {
                    row.fate = .ignored
                    if ids.kept[id] == nil { ids.ignoredRecipient[id] = recipient }
                    return
                }
                var task: Int?
                let remindsTask = context.map { $0.elementsEqual("DAILY_EXECUTION".utf8) } ?? false
                if let record, let found = taskIDs.find(record), case .accepted(let index, _) = taskOfID[Int(found)] {
                    task = index
                }
                candidates.append(
                    Candidate(
                        account: account, key: key,
                        intent: PushIntent(
                            id: id, recipientUserID: recipient, category: category,
                            status: PushIntentStatus(rawValue: status == "CANCELED" ? "CANCELLED" : status)
                                ?? .scheduled,
                            scheduledFor: scheduled.instant, relationship: relationship, remindsTask: remindsTask,
                            task: task)))
                // A kept copy of the id: deliveries naming it are not ignored.
                ids.ignoredRecipient[id] = nil
            }
        }
        var lastOfID: [String: Int] = [:]
        for (position, candidate) in candidates.enumerated() { lastOfID[candidate.intent.id] = position }
        var lastOfKey: [String: Int] = [:]
        for (position, candidate) in candidates.enumerated() where lastOfID[candidate.intent.id] == position {
            lastOfKey[candidate.key] = position
        }
        var indexOfPosition: [Int: Int] = [:]
        for (position, candidate) in candidates.enumerated() {
            guard lastOfKey[candidate.key] == position, lastOfID[candidate.intent.id] == position else {
                count(candidate.account, .duplicate)
                continue
            }
            count(candidate.account, .accepted)
            indexOfPosition[position] = push.intents.count
            push.intents.append(candidate.intent)
        }
        for candidate in candidates {
            guard let winner = lastOfID[candidate.intent.id], let kept = lastOfKey[candidates[winner].key],
                let index = indexOfPosition[kept]
            else { continue }
            ids.kept[candidate.intent.id] = index
        }
        return ids
    }

    /// Per user, the zone of the installation seen last (SPEC §11.1's
    /// fallback for an intent, which names no installation): the greatest
    /// `last_seen_at`, the later row on a tie.
    private static func installationZones(_ installations: [PushInstallation]) -> [String: ZoneID] {
        var chosen: [String: (seen: Instant?, zone: ZoneID)] = [:]
        for installation in installations {
            guard let zone = installation.zone else { continue }
            if let known = chosen[installation.userID], let seen = known.seen,
                installation.lastSeenAt.map({ $0 < seen }) ?? true
            {
                continue
            }
            chosen[installation.userID] = (installation.lastSeenAt, zone)
        }
        return chosen.mapValues(\.zone)
    }

    /// What receipts need to know of the deliveries read.
    private struct DeliveryIDs {
        /// Every id of a kept or duplicate delivery → the kept delivery's index.
        var kept: [String: Int] = [:]
        /// Ids whose only rows were ignored: receipts naming them are ignored.
        var ignored: Set<String> = []
    }

    /// Same `id`: the last row wins; then the same (kept intent,
    /// installation): the last wins, and the other's receipts are the kept one's.
    private func readDeliveries(
        into push: inout PushExports, intents: IntentIDs, installationOfID: [String: Int]
    ) throws -> DeliveryIDs {
        typealias Column = PushDeliveryColumn
        struct Candidate {
            var account: Int
            var delivery: PushDelivery
        }
        var candidates: [Candidate] = []
        var ids = DeliveryIDs()
        let installations = push.installations
        let keptIntents = push.intents
        for file in layout.pushDeliveries {
            try readCSV(file, Column.self) { row, account in
                let id = row.text(Column.id)
                let intentID = row.text(Column.intentID)
                let installationID = row.text(Column.installationID)
                let provider = row.choice(Column.provider, .pushProvider)
                let status = row.choice(Column.status, .deliveryStatus)
                let attempts = row.integer(Column.attemptCount)
                _ = row.instant(Column.nextRetryAt)
                let errorCode = row.text(Column.lastErrorCode)
                let sent = row.instant(Column.sentAt)
                _ = row.instant(Column.deliveredAt)
                let failed = row.instant(Column.failedAt)
                guard row.rejectReason == nil, let id, let intentID, let installationID, let provider, let status
                else { return }
                let intent = intents.kept[intentID]
                let ignoredRecipient = intents.ignoredRecipient[intentID]
                guard intent != nil || ignoredRecipient != nil else { return row.fail("unknown_intent") }
                guard let installation = installationOfID[installationID] else {
                    return row.fail("unknown_installation")
                }
                let recipient = intent.map { keptIntents[$0].recipientUserID } ?? ignoredRecipient
                guard installations[installation].userID == recipient else { return row.fail("recipient_mismatch") }
                guard let intent, !(sent.map { isAfterAsOf($0.instant) } ?? false) else {
                    row.fate = .ignored
                    if ids.kept[id] == nil { ids.ignored.insert(id) }
                    return
                }
                candidates.append(
                    Candidate(
                        account: account,
                        delivery: PushDelivery(
                            id: id, intent: intent, installation: installation, provider: provider,
                            status: PushDeliveryStatus(rawValue: status) ?? .pending, attemptCount: attempts,
                            lastErrorCode: errorCode, sentAt: sent?.instant, failedAt: failed?.instant)))
                ids.kept[id] = -1
                ids.ignored.remove(id)
            }
        }
        var lastOfID: [String: Int] = [:]
        for (position, candidate) in candidates.enumerated() { lastOfID[candidate.delivery.id] = position }
        struct Target: Hashable {
            var intent: Int
            var installation: Int
        }
        var lastOfTarget: [Target: Int] = [:]
        func target(_ delivery: PushDelivery) -> Target {
            Target(intent: delivery.intent, installation: delivery.installation)
        }
        for (position, candidate) in candidates.enumerated() where lastOfID[candidate.delivery.id] == position {
            lastOfTarget[target(candidate.delivery)] = position
        }
        var indexOfPosition: [Int: Int] = [:]
        for (position, candidate) in candidates.enumerated() {
            guard lastOfTarget[target(candidate.delivery)] == position, lastOfID[candidate.delivery.id] == position
            else {
                count(candidate.account, .duplicate)
                continue
            }
            count(candidate.account, .accepted)
            indexOfPosition[position] = push.deliveries.count
            push.deliveries.append(candidate.delivery)
        }
        for candidate in candidates {
            guard let winner = lastOfID[candidate.delivery.id],
                let kept = lastOfTarget[target(candidates[winner].delivery)], let index = indexOfPosition[kept]
            else { continue }
            ids.kept[candidate.delivery.id] = index
        }
        return ids
    }

    /// Append-only: the same `id` again is a duplicate (the first wins).
    private func readReceipts(into push: inout PushExports, deliveries: DeliveryIDs) throws {
        typealias Column = PushReceiptColumn
        var seen: Set<String> = []
        for file in layout.pushReceipts {
            try readCSV(file, Column.self) { row, _ in
                let id = row.text(Column.id)
                let deliveryID = row.text(Column.deliveryID)
                let status = row.choice(Column.receiptStatus, .receiptStatus)
                let received = row.instant(Column.receivedAt)
                _ = row.choice(Column.provider, .pushProvider)
                let code = row.text(Column.providerErrorCode)
                guard row.rejectReason == nil, let id, let deliveryID, let status, let received else { return }
                let delivery = deliveries.kept[deliveryID]
                guard delivery != nil || deliveries.ignored.contains(deliveryID) else {
                    return row.fail("unknown_delivery")
                }
                guard let delivery, !isAfterAsOf(received.instant) else {
                    row.fate = .ignored
                    return
                }
                guard seen.insert(id).inserted else {
                    row.fate = .duplicate
                    return
                }
                row.fate = .accepted
                push.receipts.append(
                    PushReceipt(
                        id: id, delivery: delivery, ok: status == "OK", receivedAt: received.instant, errorCode: code))
            }
        }
    }
}
