/// The outcome of a delivery as of T (SPEC §11.2). `delivered` means the
/// provider accepted it, not that a person saw it.
public enum PushOutcome: String, Sendable {
    case delivered = "DELIVERED"
    case sentUnconfirmed = "SENT_UNCONFIRMED"
    case failed = "FAILED"
    case pending = "PENDING"
}

/// One kept delivery's facts (SPEC §11.2), in `PushExports.deliveries` order.
public struct PushDeliveryFact: Sendable {
    public var outcome: PushOutcome
    /// Set when the outcome is FAILED.
    public var errorClass: PushErrorClass?
    /// The UTC date of `sent_at`, else of the intent's `scheduled_for`.
    public var day: LocalDate
    public var inQuietHours = false
    public var afterTaskDone = false
    public var toInvalidToken = false

    /// NULL unless the outcome is FAILED.
    public var retryable: Bool? { errorClass?.retryable }
}

/// Computes every delivery's outcome and flags from the push exports and
/// the task outcomes (for `after_task_done`).
public enum PushDeliveryFactsCalculator {
    public static func facts(_ drop: IngestedDrop, _ push: PushExports, outcomes: [TaskOutcome]) -> [PushDeliveryFact] {
        // The deciding receipt per delivery: the latest by (received_at, id).
        var deciding = [Int?](repeating: nil, count: push.deliveries.count)
        for (index, receipt) in push.receipts.enumerated() {
            if let known = deciding[receipt.delivery] {
                let current = push.receipts[known]
                let later =
                    receipt.receivedAt != current.receivedAt
                    ? receipt.receivedAt > current.receivedAt : push.receiptIDs.less(current.id, receipt.id)
                if !later { continue }
            }
            deciding[receipt.delivery] = index
        }
        // Each recipient's zone source, looked up once (by name) per user.
        var zoneSources = [UserZones.PushZoneSource?](repeating: nil, count: push.users.count)
        var facts: [PushDeliveryFact] = []
        facts.reserveCapacity(push.deliveries.count)
        // What a delivery reads of its installation (a copied installation retained its Strings).
        let installations = push.installations.map { (zone: $0.zone, revokedAt: $0.revokedAt) }
        // When each installation's token was first known invalid, from each
        // token_invalid outcome: the deciding receipt's `received_at`, else
        // the delivery's `failed_at`, else its `sent_at`.
        var knownByInstallation: [Int: [(at: Instant, delivery: Int)]] = [:]
        for (index, delivery) in push.deliveries.enumerated() {
            let intent = push.intents[delivery.intent]
            let (outcome, errorClass) = outcomeOf(delivery, receipt: deciding[index].map { push.receipts[$0] })
            let day = drop.zones.localDate(ZoneCatalog.utc, delivery.sentAt ?? intent.scheduledFor)
            var fact = PushDeliveryFact(outcome: outcome, errorClass: errorClass, day: day)
            if errorClass == .tokenInvalid,
                let known = deciding[index].map({ push.receipts[$0].receivedAt }) ?? delivery.failedAt
                    ?? delivery.sentAt
            {
                knownByInstallation[delivery.installation, default: []].append((known, index))
            }
            if let sent = delivery.sentAt {
                let installation = installations[delivery.installation]
                let user = Int(intent.recipient)
                if !push.preferences[user].isEmpty {
                    let source = zoneSources[user] ?? drop.userZones.pushSource(push.user(intent.recipient))
                    zoneSources[user] = source
                    fact.inQuietHours = isInQuietHours(
                        drop.zones, push.preferences[user], at: sent,
                        zone: source.zone(at: sent, installationZone: installation.zone))
                }
                if intent.remindsTask, let task = intent.task, outcomes[task].kind == .completed,
                    let done = outcomes[task].occurredAt
                {
                    fact.afterTaskDone = done < sent
                }
                fact.toInvalidToken = installation.revokedAt.map { $0 <= sent } ?? false
            }
            facts.append(fact)
        }
        // Sends after another delivery on the installation was known to have an invalid token.
        for (index, delivery) in push.deliveries.enumerated() {
            guard let sent = delivery.sentAt, !facts[index].toInvalidToken,
                let known = knownByInstallation[delivery.installation]
            else { continue }
            facts[index].toInvalidToken = known.contains { $0.delivery != index && $0.at < sent }
        }
        return facts
    }

    /// SPEC §11.2's outcome rules, in order: the deciding receipt, else the status.
    static func outcomeOf(_ delivery: PushDelivery, receipt: PushReceipt?) -> (PushOutcome, PushErrorClass?) {
        if let receipt {
            return receipt.ok ? (.delivered, nil) : (.failed, receipt.errorClass)
        }
        switch delivery.status {
        case .delivered: return (.delivered, nil)
        case .sent: return (.sentUnconfirmed, nil)
        case .invalidToken: return (.failed, .tokenInvalid)
        case .throttled: return (.failed, .rateLimited)
        case .transientFailed: return (.failed, delivery.knownErrorClass ?? .transient)
        case .failed: return (.failed, delivery.knownErrorClass ?? .other)
        case .pending: return (.pending, nil)
        }
    }

    /// Whether `instant`'s wall-clock time in the recipient's zone (to the
    /// second) lies in the quiet hours in force then: [start, end), wrapping
    /// past midnight when start > end; none when either end is NULL or both
    /// are equal. A DST gap or repeat needs no rule of its own: the wall
    /// clock of the instant is what counts.
    static func isInQuietHours(
        _ zones: ZoneCatalog, _ history: [NotificationPreference], at instant: Instant, zone: ZoneID
    ) -> Bool {
        guard let preference = history.last(where: { $0.effectiveFrom <= instant }),
            let start = preference.quietStart, let end = preference.quietEnd, start != end
        else { return false }
        let seconds = instant.seconds
        let local = seconds + Int64(zones.offset(zone, atSeconds: seconds))
        let clock = Int32(((local % 86_400) + 86_400) % 86_400)
        return start < end ? (clock >= start && clock < end) : (clock >= start || clock < end)
    }
}
