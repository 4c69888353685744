/// The push outputs of SPEC §11.3, from `RunResult.push`: the per-delivery
/// snapshot and the three summaries (each a snapshot and a CSV report).
/// Ids, dates, counts, codes and rates only: no token, payload or text.
extension ReportTables {
    /// The snapshot `push_deliveries`: one row per kept delivery, by (day, delivery_id).
    public static func pushDeliveries(_ result: RunResult) -> OutputTable {
        let push = result.drop.push ?? PushExports()
        let facts = result.push?.deliveries ?? []
        let relationshipIDs = ParquetByteColumn(result.drop.relationships.map { $0.id })
        let deliveryIDs = push.deliveryIDs
        let order = deliveryOrder(push.deliveries, facts: facts, ids: deliveryIDs)
        let deliveries = order.map { push.deliveries[$0] }
        let rows = order.map { facts[$0] }
        let intents = deliveries.map { push.intents[$0.intent] }
        // Per installation, what its deliveries' rows show (read per cell:
        // a copied installation retained its Strings).
        let installationIDs = ParquetByteColumn(push.installations.map { $0.id })
        let platforms = push.installations.map(\.platform.rawValue)
        let surfaces = push.installations.map(\.appSurface.rawValue)
        let versions = push.installations.map(\.appVersion)
        let users = push.users
        let intentIDs = push.intentIDs
        var table = OutputTable(
            name: "push_deliveries", rowCount: rows.count,
            columns: [
                OutputColumn(
                    "delivery_id",
                    .bytes { row, column in deliveryIDs.withString(deliveries[row].id) { column.append($0) } }
                ),
                OutputColumn(
                    "intent_id", .bytes { row, column in intentIDs.withString(intents[row].id) { column.append($0) } }),
                OutputColumn(
                    "recipient_user_id",
                    .bytes { row, column in users.withKey(intents[row].recipient) { column.append($0) } }),
                OutputColumn(
                    "relationship_id", nullable: true,
                    .bytes { row, column in
                        if let relationship = intents[row].relationship {
                            column.append(row: relationship, of: relationshipIDs)
                        } else {
                            column.appendNull()
                        }
                    }),
                OutputColumn(
                    "installation_id",
                    .bytes { row, column in column.append(row: deliveries[row].installation, of: installationIDs) }),
                OutputColumn("provider", .string { deliveries[$0].provider.rawValue }),
                OutputColumn("platform", .string { platforms[deliveries[$0].installation] }),
                OutputColumn("app_surface", .string { surfaces[deliveries[$0].installation] }),
                OutputColumn("app_version", nullable: true, .string { versions[deliveries[$0].installation] }),
                OutputColumn("category", .string { intents[$0].category.rawValue }),
                OutputColumn("day", .date { rows[$0].day }),
                OutputColumn("sent_at", nullable: true, .timestamp { deliveries[$0].sentAt }),
                OutputColumn("outcome", .string { rows[$0].outcome.rawValue }),
                OutputColumn("error_class", nullable: true, .string { rows[$0].errorClass?.rawValue }),
                OutputColumn("retryable", nullable: true, .bool { rows[$0].retryable }),
                OutputColumn("attempt_count", nullable: true, .int { deliveries[$0].attemptCount }),
                OutputColumn("in_quiet_hours", .bool { rows[$0].inQuietHours }),
                OutputColumn("after_task_done", .bool { rows[$0].afterTaskDone }),
                OutputColumn("to_invalid_token", .bool { rows[$0].toInvalidToken }),
            ])
        // The rows are by day: each month is a block of the snapshot
        // (Decisions.md, "Snapshots are laid out in month blocks"), whose
        // digest a run with a state records, to copy it the next night.
        var blockStarts: [Int] = []
        var month = Int.min
        for (position, row) in rows.enumerated() where RelationshipDaySegments.monthIndex(row.day) != month {
            month = RelationshipDaySegments.monthIndex(row.day)
            blockStarts.append(position)
        }
        table.blockStarts = blockStarts.isEmpty ? [0] : blockStarts
        table.blockDigests = { ranges in
            pushDeliveryFingerprints(
                deliveries, intents: intents, facts: rows, push: push, relationships: result.drop.relationships
            ).digests(of: ranges)
        }
        return table
    }

    /// The deliveries' positions by (day, delivery id): grouped by day with
    /// a counting sort, then each day's sorted by id. One comparison sort of
    /// every row by (day, id) was 3.6 % of a resumed night's CPU on the
    /// 1.1 GB drop (each comparison reading two facts and two deliveries at
    /// random). Days spread much wider than the rows (a stray year) are
    /// sorted by comparison. Ids are unique: the order is the same either way.
    static func deliveryOrder(_ deliveries: [PushDelivery], facts: [PushDeliveryFact], ids: ByteStrings) -> [Int] {
        let days = facts.map { Int($0.day.days) }
        guard let first = days.min(), let last = days.max(), last - first <= 4 * days.count + 1024 else {
            return deliveries.indices.sorted {
                days[$0] != days[$1] ? days[$0] < days[$1] : ids.less(deliveries[$0].id, deliveries[$1].id)
            }
        }
        var starts = [Int](repeating: 0, count: last - first + 2)
        for day in days { starts[day - first + 1] += 1 }
        for slot in 1..<starts.count { starts[slot] += starts[slot - 1] }
        var order = [Int](repeating: 0, count: days.count)
        var next = starts
        for (position, day) in days.enumerated() {
            order[next[day - first]] = position
            next[day - first] += 1
        }
        for slot in 0..<(starts.count - 1) where starts[slot + 1] - starts[slot] > 1 {
            order[starts[slot]..<starts[slot + 1]].sort { ids.less(deliveries[$0].id, deliveries[$1].id) }
        }
        return order
    }

    /// Each `push_deliveries` row's fingerprint (`RowFingerprints`, in the
    /// table's order): its delivery's and intent's ids, recipient,
    /// relationship id, installation (id, platform, surface, version),
    /// provider, category, sent_at and attempt count, and its fact's day,
    /// outcome, error class and flags. Installations and relationships are
    /// fingerprinted once each and combined as words.
    static func pushDeliveryFingerprints(
        _ deliveries: [PushDelivery], intents: [PushIntent], facts: [PushDeliveryFact], push: PushExports,
        relationships: [Relationship]
    ) -> RowFingerprints {
        let installations = push.installations.map {
            RowFingerprints.pair(of: [$0.id, $0.platform.rawValue, $0.appSurface.rawValue, $0.appVersion])
        }
        let relationshipIDs = relationships.map { RowFingerprints.pair(of: [$0.id]) }
        return RowFingerprints(count: deliveries.count) { row, hash in
            let delivery = deliveries[row]
            let intent = intents[row]
            let fact = facts[row]
            push.deliveryIDs.withString(delivery.id) { hash.combine($0) }
            push.intentIDs.withString(intent.id) { hash.combine($0) }
            push.users.withKey(intent.recipient) { hash.combine($0) }
            let relationship = intent.relationship.map { relationshipIDs[$0] }
            hash.combine(Int64(relationship == nil ? 0 : 1))
            hash.combine(relationship?.0 ?? 0)
            hash.combine(relationship?.1 ?? 0)
            let installation = installations[delivery.installation]
            hash.combine(installation.0)
            hash.combine(installation.1)
            hash.combine(delivery.provider.rawValue)
            hash.combine(intent.category.rawValue)
            hash.combine(Int64(delivery.sentAt == nil ? 0 : 1))
            hash.combine(delivery.sentAt?.micros ?? 0)
            hash.combine(Int64(delivery.attemptCount == nil ? 0 : 1))
            hash.combine(delivery.attemptCount ?? 0)
            hash.combine(Int64(fact.day.days))
            hash.combine(fact.outcome.rawValue)
            hash.combine(fact.errorClass?.rawValue)
            hash.combine(
                Int64(fact.inQuietHours ? 1 : 0) | Int64(fact.afterTaskDone ? 2 : 0)
                    | Int64(fact.toInvalidToken ? 4 : 0))
        }
    }

    public static func pushDeliveryHealth(_ result: RunResult) -> OutputTable {
        pushDeliveryHealth(rows: result.push?.health ?? [])
    }

    /// The table of rows already summed and sorted (a partitioned run sums its partitions').
    static func pushDeliveryHealth(rows: [PushHealthRow]) -> OutputTable {
        let classes = PushErrorClass.allCases
        return OutputTable(
            name: "push_delivery_health", rowCount: rows.count,
            columns: [
                OutputColumn("day", .date { rows[$0].day }),
                OutputColumn("provider", .string { rows[$0].provider.rawValue }),
                OutputColumn("platform", .string { rows[$0].platform.rawValue }),
                OutputColumn("app_surface", .string { rows[$0].appSurface.rawValue }),
                OutputColumn("app_version", nullable: true, .string { rows[$0].appVersion }),
                OutputColumn("category", .string { rows[$0].category.rawValue }),
                OutputColumn("deliveries", .int { Int64(rows[$0].deliveries) }),
                OutputColumn("sent", .int { Int64(rows[$0].sent) }),
                OutputColumn("delivered", .int { Int64(rows[$0].delivered) }),
                OutputColumn("sent_unconfirmed", .int { Int64(rows[$0].sentUnconfirmed) }),
                OutputColumn("pending", .int { Int64(rows[$0].pending) }),
                OutputColumn("failed", .int { Int64(rows[$0].failed) }),
            ]
                + classes.indices.map { slot in
                    OutputColumn("failed_\(classes[slot].rawValue)", .int { Int64(rows[$0].failedByClass[slot]) })
                } + [
                    OutputColumn("delivery_rate", nullable: true, .double { rows[$0].deliveryRate }),
                    OutputColumn("sent_in_quiet_hours", .int { Int64(rows[$0].sentInQuietHours) }),
                    OutputColumn("sent_after_task_done", .int { Int64(rows[$0].sentAfterTaskDone) }),
                    OutputColumn("sent_to_invalid_token", .int { Int64(rows[$0].sentToInvalidToken) }),
                ])
    }

    public static func pushIntentSummary(_ result: RunResult) -> OutputTable {
        pushIntentSummary(rows: result.push?.intentSummary ?? [])
    }

    static func pushIntentSummary(rows: [PushIntentSummaryRow]) -> OutputTable {
        return OutputTable(
            name: "push_intent_summary", rowCount: rows.count,
            columns: [
                OutputColumn("day", .date { rows[$0].day }),
                OutputColumn("category", .string { rows[$0].category.rawValue }),
                OutputColumn("intents", .int { Int64(rows[$0].intents) }),
                OutputColumn("with_delivery", .int { Int64(rows[$0].withDelivery) }),
                OutputColumn("delivered", .int { Int64(rows[$0].delivered) }),
                OutputColumn("cancelled", .int { Int64(rows[$0].cancelled) }),
                OutputColumn("expired", .int { Int64(rows[$0].expired) }),
                OutputColumn("suppressed", .int { Int64(rows[$0].suppressed) }),
                OutputColumn("unsent", .int { Int64(rows[$0].unsent) }),
            ])
    }

    public static func reminderEffectiveness(_ result: RunResult) -> OutputTable {
        let rows = (result.push?.reminders ?? []).filter { result.owns(relationship: $0.relationship) }
        let relationships = result.drop.relationships
        return OutputTable(
            name: "reminder_effectiveness", rowCount: rows.count,
            columns: [
                OutputColumn("relationship_id", .string { relationships[rows[$0].relationship].id }),
                OutputColumn("client_user_id", .string { relationships[rows[$0].relationship].clientUserID }),
                OutputColumn(
                    "coach_user_id", nullable: true, .string { relationships[rows[$0].relationship].coachUserID }),
                OutputColumn("window_from", .date { rows[$0].windowFrom }),
                OutputColumn("window_to", .date { rows[$0].windowTo }),
                OutputColumn("scored_tasks", .int { Int64(rows[$0].scoredTasks) }),
                OutputColumn("reminded_tasks", .int { Int64(rows[$0].remindedTasks) }),
                OutputColumn("reminded_completed", .int { Int64(rows[$0].remindedCompleted) }),
                OutputColumn(
                    "reminded_completion_rate", nullable: true, .double { rows[$0].remindedCompletionRate }),
                OutputColumn("unreminded_tasks", .int { Int64(rows[$0].unremindedTasks) }),
                OutputColumn("unreminded_completed", .int { Int64(rows[$0].unremindedCompleted) }),
                OutputColumn(
                    "unreminded_completion_rate", nullable: true, .double { rows[$0].unremindedCompletionRate }),
                OutputColumn("completed_within_2h", .int { Int64(rows[$0].completedWithin2h) }),
                OutputColumn("wasted_reminders", .int { Int64(rows[$0].wastedReminders) }),
            ])
    }
}
