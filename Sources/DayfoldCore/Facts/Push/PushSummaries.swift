/// `push_delivery_health` (SPEC §11.3): one row per (day, provider,
/// platform, app_surface, app_version, category) with a delivery.
public struct PushHealthRow: Sendable, Codable {
    public var day: LocalDate
    public var provider: PushProvider
    public var platform: PushPlatform
    public var appSurface: PushAppSurface
    public var appVersion: String?
    public var category: PushCategory
    public var deliveries = 0
    public var sent = 0
    public var delivered = 0
    public var sentUnconfirmed = 0
    public var pending = 0
    public var failed = 0
    /// FAILED deliveries per error class (`PushErrorClass.allCases` order).
    public var failedByClass = [Int](repeating: 0, count: PushErrorClass.allCases.count)
    /// Sent deliveries whose outcome is DELIVERED (the rate's numerator).
    public var sentDelivered = 0
    public var sentInQuietHours = 0
    public var sentAfterTaskDone = 0
    public var sentToInvalidToken = 0

    /// sent-and-DELIVERED ÷ sent; NULL when nothing was sent (never 0 %).
    public var deliveryRate: Double? { sent == 0 ? nil : Double(sentDelivered) / Double(sent) }

    /// The group's six keys.
    struct Key: Hashable {
        var day: Int32
        var provider: PushProvider
        var platform: PushPlatform
        var surface: PushAppSurface
        var version: String?
        var category: PushCategory
    }

    var key: Key {
        Key(
            day: day.days, provider: provider, platform: platform, surface: appSurface, version: appVersion,
            category: category)
    }

    /// Adds another partition's counts of the same group.
    mutating func add(_ other: PushHealthRow) {
        deliveries += other.deliveries
        sent += other.sent
        delivered += other.delivered
        sentUnconfirmed += other.sentUnconfirmed
        pending += other.pending
        failed += other.failed
        for slot in failedByClass.indices { failedByClass[slot] += other.failedByClass[slot] }
        sentDelivered += other.sentDelivered
        sentInQuietHours += other.sentInQuietHours
        sentAfterTaskDone += other.sentAfterTaskDone
        sentToInvalidToken += other.sentToInvalidToken
    }
}

/// `push_intent_summary` (SPEC §11.3): one row per (UTC date of `scheduled_for`, category).
public struct PushIntentSummaryRow: Sendable, Codable {
    public var day: LocalDate
    public var category: PushCategory
    public var intents = 0
    public var withDelivery = 0
    public var delivered = 0
    public var cancelled = 0
    public var expired = 0
    public var suppressed = 0
    public var unsent = 0

    /// The row's two keys.
    struct Key: Hashable {
        var day: Int32
        var category: PushCategory
    }

    var key: Key { Key(day: day.days, category: category) }
}

/// `reminder_effectiveness` (SPEC §11.3): per relationship, the scored
/// tasks of its `adherence_30d` window split by whether a reminder reached them.
public struct ReminderEffectivenessRow: Sendable {
    public var relationship: Int
    public var windowFrom: LocalDate
    public var windowTo: LocalDate
    public var scoredTasks = 0
    public var remindedTasks = 0
    public var remindedCompleted = 0
    public var unremindedTasks = 0
    public var unremindedCompleted = 0
    public var completedWithin2h = 0
    public var wastedReminders = 0

    /// NULL when no task was reminded (never 0 %).
    public var remindedCompletionRate: Double? {
        remindedTasks == 0 ? nil : Double(remindedCompleted) / Double(remindedTasks)
    }
    /// NULL when every task was reminded.
    public var unremindedCompletionRate: Double? {
        unremindedTasks == 0 ? nil : Double(unremindedCompleted) / Double(unremindedTasks)
    }
}

/// Every push fact of a run: per delivery, and the three summaries.
public struct PushFacts: Sendable {
    public var deliveries: [PushDeliveryFact]
    public var health: [PushHealthRow]
    public var intentSummary: [PushIntentSummaryRow]
    public var reminders: [ReminderEffectivenessRow]
}

public enum PushSummaries {
    public static func facts(
        _ drop: IngestedDrop, _ push: PushExports, outcomes: [TaskOutcome], today: [LocalDate], asOf: Instant
    ) -> PushFacts {
        let deliveries = PushDeliveryFactsCalculator.facts(drop, push, outcomes: outcomes)
        return PushFacts(
            deliveries: deliveries, health: health(push, deliveries),
            intentSummary: intentSummary(drop, push, deliveries, asOf: asOf),
            reminders: reminders(drop, push, deliveries, outcomes: outcomes, today: today))
    }

    static func health(_ push: PushExports, _ facts: [PushDeliveryFact]) -> [PushHealthRow] {
        // What a group takes from an installation (platform, surface,
        // version) as a small number, so a delivery's group key holds no
        // String: the row, with its version, is made once per group.
        struct Profile: Hashable {
            var platform: PushPlatform
            var surface: PushAppSurface
            var version: String?
        }
        struct Group: Hashable {
            var day: Int32
            var profile: Int
            var provider: PushProvider
            var category: PushCategory
        }
        var profiles: [Profile: Int] = [:]
        let profileOf = push.installations.map { installation in
            let profile = Profile(
                platform: installation.platform, surface: installation.appSurface, version: installation.appVersion)
            if let known = profiles[profile] { return known }
            profiles[profile] = profiles.count
            return profiles.count - 1
        }
        var rows: [PushHealthRow] = []
        var rowOf: [Group: Int] = [:]
        for (index, delivery) in push.deliveries.enumerated() {
            let fact = facts[index]
            let category = push.intents[delivery.intent].category
            let group = Group(
                day: fact.day.days, profile: profileOf[delivery.installation], provider: delivery.provider,
                category: category)
            let position: Int
            if let known = rowOf[group] {
                position = known
            } else {
                let installation = push.installations[delivery.installation]
                position = rows.count
                rowOf[group] = position
                rows.append(
                    PushHealthRow(
                        day: fact.day, provider: delivery.provider, platform: installation.platform,
                        appSurface: installation.appSurface, appVersion: installation.appVersion, category: category))
            }
            rows[position].deliveries += 1
            switch fact.outcome {
            case .delivered: rows[position].delivered += 1
            case .sentUnconfirmed: rows[position].sentUnconfirmed += 1
            case .pending: rows[position].pending += 1
            case .failed:
                rows[position].failed += 1
                if let errorClass = fact.errorClass,
                    let slot = PushErrorClass.allCases.firstIndex(of: errorClass)
                {
                    rows[position].failedByClass[slot] += 1
                }
            }
            guard delivery.sentAt != nil else { continue }
            rows[position].sent += 1
            if fact.outcome == .delivered { rows[position].sentDelivered += 1 }
            if fact.inQuietHours { rows[position].sentInQuietHours += 1 }
            if fact.afterTaskDone { rows[position].sentAfterTaskDone += 1 }
            if fact.toInvalidToken { rows[position].sentToInvalidToken += 1 }
        }
        return sortedHealth(rows)
    }

    /// Rows of several partitions summed by group (each partition counted
    /// its own deliveries; a group's deliveries may lie in several).
    public static func combine(_ rows: [PushHealthRow]) -> [PushHealthRow] {
        var total: [PushHealthRow] = []
        var rowOf: [PushHealthRow.Key: Int] = [:]
        for row in rows {
            guard let position = rowOf[row.key] else {
                rowOf[row.key] = total.count
                total.append(row)
                continue
            }
            total[position].add(row)
        }
        return sortedHealth(total)
    }

    /// Intent summary rows of several partitions summed by (day, category).
    public static func combine(_ rows: [PushIntentSummaryRow]) -> [PushIntentSummaryRow] {
        var total: [PushIntentSummaryRow] = []
        var rowOf: [PushIntentSummaryRow.Key: Int] = [:]
        for row in rows {
            guard let position = rowOf[row.key] else {
                rowOf[row.key] = total.count
                total.append(row)
                continue
            }
            total[position].intents += row.intents
            total[position].withDelivery += row.withDelivery
            total[position].delivered += row.delivered
            total[position].cancelled += row.cancelled
            total[position].expired += row.expired
            total[position].suppressed += row.suppressed
            total[position].unsent += row.unsent
        }
        return sortedIntentSummary(total)
    }

    /// The six keys' order (SPEC §11.3); a NULL app_version sorts first.
    static func sortedHealth(_ rows: [PushHealthRow]) -> [PushHealthRow] {
        rows.sorted { left, right in
            if left.day != right.day { return left.day < right.day }
            if left.provider != right.provider { return bytesLess(left.provider.rawValue, right.provider.rawValue) }
            if left.platform != right.platform { return bytesLess(left.platform.rawValue, right.platform.rawValue) }
            if left.appSurface != right.appSurface {
                return bytesLess(left.appSurface.rawValue, right.appSurface.rawValue)
            }
            if left.appVersion != right.appVersion {
                // NULL is its own group, sorted first.
                guard let a = left.appVersion else { return true }
                guard let b = right.appVersion else { return false }
                return bytesLess(a, b)
            }
            return bytesLess(left.category.rawValue, right.category.rawValue)
        }
    }

    static func intentSummary(
        _ drop: IngestedDrop, _ push: PushExports, _ facts: [PushDeliveryFact], asOf: Instant
    ) -> [PushIntentSummaryRow] {
        var hasDelivery = [Bool](repeating: false, count: push.intents.count)
        var hasDelivered = [Bool](repeating: false, count: push.intents.count)
        for (index, delivery) in push.deliveries.enumerated() {
            hasDelivery[delivery.intent] = true
            if facts[index].outcome == .delivered { hasDelivered[delivery.intent] = true }
        }
        var rows: [PushIntentSummaryRow] = []
        var rowOf: [PushIntentSummaryRow.Key: Int] = [:]
        for (index, intent) in push.intents.enumerated() {
            let day = drop.zones.localDate(ZoneCatalog.utc, intent.scheduledFor)
            let key = PushIntentSummaryRow.Key(day: day.days, category: intent.category)
            let position: Int
            if let known = rowOf[key] {
                position = known
            } else {
                position = rows.count
                rowOf[key] = position
                rows.append(PushIntentSummaryRow(day: day, category: intent.category))
            }
            rows[position].intents += 1
            if hasDelivery[index] { rows[position].withDelivery += 1 }
            if hasDelivered[index] { rows[position].delivered += 1 }
            switch intent.status {
            case .cancelled: rows[position].cancelled += 1
            case .expired: rows[position].expired += 1
            case .suppressed: rows[position].suppressed += 1
            case .scheduled, .ready, .sent:
                if !hasDelivery[index] && intent.scheduledFor <= asOf { rows[position].unsent += 1 }
            }
        }
        return sortedIntentSummary(rows)
    }

    static func sortedIntentSummary(_ rows: [PushIntentSummaryRow]) -> [PushIntentSummaryRow] {
        rows.sorted { $0.day != $1.day ? $0.day < $1.day : bytesLess($0.category.rawValue, $1.category.rawValue) }
    }

    /// SPEC §11.3: a task is reminded when a DAILY_EXECUTION intent for it
    /// has a DELIVERED delivery sent before the task's deadline and not
    /// after it was done.
    static func reminders(
        _ drop: IngestedDrop, _ push: PushExports, _ facts: [PushDeliveryFact], outcomes: [TaskOutcome],
        today: [LocalDate]
    ) -> [ReminderEffectivenessRow] {
        // Per task: its earliest qualifying send, and its sends after it was done.
        var firstReminder: [Int: Instant] = [:]
        var wasted: [Int: Int] = [:]
        for (index, delivery) in push.deliveries.enumerated() {
            let intent = push.intents[delivery.intent]
            guard intent.remindsTask, let task = intent.task, let sent = delivery.sentAt else { continue }
            if facts[index].afterTaskDone {
                wasted[task, default: 0] += 1
            } else if facts[index].outcome == .delivered, sent < outcomes[task].deadline {
                firstReminder[task] = min(firstReminder[task] ?? sent, sent)
            }
        }
        var rows = drop.relationships.indices.map { index in
            let last = today[index].adding(days: -2)
            return ReminderEffectivenessRow(relationship: index, windowFrom: last.adding(days: -29), windowTo: last)
        }
        for outcome in outcomes {
            guard let kind = outcome.kind, kind.isScored else { continue }
            let task = drop.tasks[outcome.task]
            let relationship = task.relationship
            guard task.localDate >= rows[relationship].windowFrom, task.localDate <= rows[relationship].windowTo
            else { continue }
            rows[relationship].scoredTasks += 1
            rows[relationship].wastedReminders += wasted[outcome.task] ?? 0
            let completed = kind == .completed
            if let send = firstReminder[outcome.task] {
                rows[relationship].remindedTasks += 1
                if completed {
                    rows[relationship].remindedCompleted += 1
                    if let done = outcome.occurredAt, done >= send,
                        done < Instant(micros: send.micros + 2 * 3_600_000_000)
                    {
                        rows[relationship].completedWithin2h += 1
                    }
                }
            } else {
                rows[relationship].unremindedTasks += 1
                if completed { rows[relationship].unremindedCompleted += 1 }
            }
        }
        return rows.filter { $0.scoredTasks > 0 }.sorted {
            bytesLess(drop.relationships[$0.relationship].id, drop.relationships[$1.relationship].id)
        }
    }
}
