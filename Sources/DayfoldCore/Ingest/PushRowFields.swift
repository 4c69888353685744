/// The typed values of a push intent, delivery or receipt row that need no
/// ingest state, made once, on the file's preparing thread (see
/// `CSVSource.read`), as `TaskRowFields` are for events: the ids'
/// fingerprints, the instants, and for an intent the relationship and task
/// it names. The deciding thread is then left with the dedup and the
/// lookups among push ids, a few rows after `expectLookups` named their slots.
///
/// A nil value is a field that is NULL or failed to parse: the row's own
/// accessor is then called where the decision reads the field, so a reject
/// reason is still the first bad column's.
struct IntentFields: Sendable {
    var id: UInt64?
    var idempotencyKey: UInt64?
    var scheduledFor: ParsedInstant?
    /// Whether `expires_at` and `cancelled_at` are each NULL or an instant
    /// (their values are not used).
    var unusedInstantsValid = false
    var createdAt: ParsedInstant?
    /// The relationship `relationship_id` names (nil: NULL or unknown).
    var relationship: Int?
    /// The accepted task `source_record_id` names, if any.
    var task: Int?
    /// `source_context` is `DAILY_EXECUTION`.
    var remindsTask = false

    static func preparing(
        _ relationships: RelationshipLookup, taskIDs: ByteKeyTable, taskOfID: [DropIngestor.TaskReference]
    ) -> @Sendable (CSVPeek) -> IntentFields {
        typealias Column = PushIntentColumn
        let sinceReminder = Array("DAILY_EXECUTION".utf8)
        return { row in
            var fields = IntentFields()
            fields.id = row.fingerprint(Column.id)
            fields.idempotencyKey = row.fingerprint(Column.idempotencyKey)
            fields.scheduledFor = row.instant(Column.scheduledFor)
            fields.unusedInstantsValid =
                row.isInstantOrNull(Column.expiresAt) && row.isInstantOrNull(Column.cancelledAt)
            fields.createdAt = row.instant(Column.createdAt)
            fields.relationship = row.relationship(Column.relationshipID, in: relationships)
            if let record = row.field(Column.sourceRecordID), let found = taskIDs.find(row.bytes, field: record),
                case .accepted(let index, _) = taskOfID[Int(found)]
            {
                fields.task = index
            }
            if let context = row.field(Column.sourceContext) {
                fields.remindsTask = row.bytes[context].elementsEqual(sinceReminder)
            }
            return fields
        }
    }
}

/// A push delivery row's prepared values (see `IntentFields`).
struct DeliveryFields: Sendable {
    var id: UInt64?
    var intentID: UInt64?
    /// Whether `next_retry_at` and `delivered_at` are each NULL or an instant.
    var unusedInstantsValid = false
    var sentAt: ParsedInstant?
    var failedAt: ParsedInstant?

    static func preparing() -> @Sendable (CSVPeek) -> DeliveryFields {
        typealias Column = PushDeliveryColumn
        return { row in
            var fields = DeliveryFields()
            fields.id = row.fingerprint(Column.id)
            fields.intentID = row.fingerprint(Column.intentID)
            fields.unusedInstantsValid =
                row.isInstantOrNull(Column.nextRetryAt) && row.isInstantOrNull(Column.deliveredAt)
            fields.sentAt = row.instant(Column.sentAt)
            fields.failedAt = row.instant(Column.failedAt)
            return fields
        }
    }
}

/// A push receipt row's prepared values (see `IntentFields`).
struct ReceiptFields: Sendable {
    var id: UInt64?
    var deliveryID: UInt64?
    var receivedAt: ParsedInstant?

    static func preparing() -> @Sendable (CSVPeek) -> ReceiptFields {
        typealias Column = PushReceiptColumn
        return { row in
            ReceiptFields(
                id: row.fingerprint(Column.id), deliveryID: row.fingerprint(Column.deliveryID),
                receivedAt: row.instant(Column.receivedAt))
        }
    }
}
