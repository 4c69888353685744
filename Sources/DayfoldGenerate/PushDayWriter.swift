import DayfoldCore

/// Writes `push/` (installations, intents, deliveries, receipts) and
/// `subjects/notification_preferences.csv` (SPEC §11.1) with the shapes the
/// Push seed describes: task reminders (some sent after the task was done,
/// some in quiet hours), coach messages and risk flags, providers' error
/// codes, retries, receipts that contradict the status, revoked tokens
/// that still get sends — and the never-read token and payload columns,
/// filled, so every run proves they reach no output.
struct PushDayWriter {
    static let installationHeader =
        [
            PushInstallationColumn.id, .userID, .appSurface, .platform, .provider, .appVersion, .environment,
            .permissionStatus, .locale, .timezone, .lastSeenAt, .revokedAt,
        ].map(\.name).joined(separator: ",") + ",device_id,provider_token_hash"
    static let intentHeader =
        [
            PushIntentColumn.id, .recipientUserID, .workspaceID, .relationshipID, .sourceContext, .sourceRecordID,
            .category, .priority,
        ].map(\.name).joined(separator: ",") + ",title_key,interpolation,"
        + [PushIntentColumn.idempotencyKey, .scheduledFor, .status, .createdAt].map(\.name).joined(separator: ",")
    static let deliveryHeader =
        [
            PushDeliveryColumn.id, .intentID, .installationID, .provider, .status, .attemptCount, .lastErrorCode,
        ].map(\.name).joined(separator: ",") + ",last_error_detail,"
        + [PushDeliveryColumn.sentAt, .failedAt].map(\.name).joined(separator: ",")
    static let receiptHeader =
        [PushReceiptColumn.id, .deliveryID, .provider, .receiptStatus, .providerErrorCode].map(\.name).joined(
            separator: ",") + ",raw_payload," + PushReceiptColumn.receivedAt.name

    private var intents: DropPartWriter
    private var deliveries: DropPartWriter
    private var receipts: DropPartWriter
    private var singles: [DropPartWriter.Part] = []
    private let context: SyntheticDropContext

    private static let versions = ["2.9.0", "2.10.0", "2.11.0", "3.0.0-rc1"].map(SyntheticVocabulary.bytes)
    private static let coachVersions = ["5.0.2", "5.1.0"].map(SyntheticVocabulary.bytes)
    private static let failureCodes = [
        "MessageTooBig", "InvalidCredentials", "MismatchSenderId", "InternalServerError", "QUOTA_EXCEEDED",
        "TooManyRequests", "WeirdProviderError",
    ].map(SyntheticVocabulary.bytes)
    private static let tokenCodes = ["DeviceNotRegistered", "UNREGISTERED", "BadDeviceToken"].map(
        SyntheticVocabulary.bytes)
    private static let transientCodes = ["ServiceUnavailable", "INTERNAL", "Shutdown"].map(SyntheticVocabulary.bytes)
    private static let providers = ["EXPO", "APNS", "FCM"].map(SyntheticVocabulary.bytes)
    private static let secret = SyntheticVocabulary.bytes("tok-never-read")
    private static let payload = SyntheticVocabulary.field("{\"body\":\"never read\"}")

    init(clients: [SyntheticClient], root: String, zstd: Bool, maxPartBytes: Int64, context: SyntheticDropContext)
        throws
    {
        self.context = context
        intents = try DropPartWriter(
            root: root, folder: "push/intents", baseName: "intents", header: Self.intentHeader, zstd: zstd,
            maxPartBytes: maxPartBytes)
        deliveries = try DropPartWriter(
            root: root, folder: "push/deliveries", baseName: "deliveries", header: Self.deliveryHeader, zstd: zstd,
            maxPartBytes: maxPartBytes)
        receipts = try DropPartWriter(
            root: root, folder: "push/receipts", baseName: "receipts", header: Self.receiptHeader, zstd: zstd,
            maxPartBytes: maxPartBytes)
        var installations = try DropPartWriter(
            root: root, folder: "push/installations", baseName: "installations", header: Self.installationHeader,
            zstd: zstd, maxPartBytes: .max)
        var preferences = try DropPartWriter(
            root: root, folder: "subjects", baseName: "notification_preferences",
            header: NotificationPreferenceColumn.header, zstd: zstd, maxPartBytes: .max)
        for client in clients {
            var rng = SplitMix64(seed: context.seed, stream: 0x9057, client.index)
            try Self.appendInstallation(client, device: 0, rng: &rng, context: context, to: &installations)
            if rng.chance(0.2) {
                try Self.appendInstallation(client, device: 1, rng: &rng, context: context, to: &installations)
            }
            if client.index % 30 == 0 {
                // The coach's phone (coaches have no zone of their own).
                installations.row.put(Self.coachInstallationID(client, context: context))
                installations.row.put(client.coach)
                installations.row.put(SyntheticVocabulary.bytes("COACH_MOBILE"))
                installations.row.put(SyntheticVocabulary.bytes(rng.chance(0.5) ? "IOS" : "ANDROID"))
                installations.row.put(Self.providers[0])
                installations.row.put(Self.coachVersions[rng.below(Self.coachVersions.count)])
                installations.row.append("production,GRANTED,en_US,,,,")
                installations.row.put(Self.secret)
                installations.row.append(Self.secret)
                try installations.endRow()
            }
            if rng.chance(0.6) {
                preferences.row.put(client.user)
                preferences.row.put(
                    SyntheticInstant(day: client.startedOn - 1, minuteOfDay: 600, offsetSeconds: 0), .isoUTC)
                preferences.row.append(rng.chance(0.7) ? "22:00,07:00" : "23:00,06:30")
                try preferences.endRow()
            }
        }
        singles = [try installations.finishSingle(), try preferences.finishSingle()]
    }

    mutating func finish() throws -> [DropPartWriter.Part] {
        try singles + intents.finish(firstNumber: 0) + deliveries.finish(firstNumber: 0)
            + receipts.finish(firstNumber: 0)
    }

    private static func installationID(_ client: SyntheticClient, device: Int, context: SyntheticDropContext)
        -> SyntheticID
    {
        SyntheticID(.pushInstallation, seed: context.seed, client.index, device)
    }

    /// The day the client's first installation's token is revoked (about 4 % of
    /// clients): sends to it go on for two weeks, failing with token codes.
    private static func revokeDay(_ client: SyntheticClient, context: SyntheticDropContext) -> Int? {
        var rng = SplitMix64(seed: context.seed, stream: 0x905A, client.index)
        guard rng.chance(0.04) else { return nil }
        return context.firstDay + rng.below(max(1, context.lastDay - context.firstDay))
    }

    /// The phone of the client's coach: written with the coach's first client (`index` a multiple of 30).
    private static func coachInstallationID(_ client: SyntheticClient, context: SyntheticDropContext) -> SyntheticID {
        SyntheticID(.pushInstallation, seed: context.seed, client.index / 30 * 30, 9)
    }

    private static func appendInstallation(
        _ client: SyntheticClient, device: Int, rng: inout SplitMix64, context: SyntheticDropContext,
        to writer: inout DropPartWriter
    ) throws {
        writer.row.put(installationID(client, device: device, context: context))
        writer.row.put(client.user)
        writer.row.put(SyntheticVocabulary.bytes("CLIENT_MOBILE"))
        let ios = rng.chance(0.55)
        writer.row.put(SyntheticVocabulary.bytes(ios ? "IOS" : "ANDROID"))
        writer.row.put(providers[rng.chance(0.85) ? 0 : (ios ? 1 : 2)])
        if rng.chance(0.03) { writer.row.putEmpty() } else { writer.row.put(versions[rng.below(versions.count)]) }
        writer.row.append("production,GRANTED,en_US,")
        if rng.chance(0.8) { writer.row.put(context.zones.names[client.zone]) } else { writer.row.putEmpty() }
        writer.row.put(
            SyntheticInstant(day: context.lastDay, minuteOfDay: 480, offsetSeconds: 0), .isoUTC)
        // A few tokens are revoked mid-window, and sends to them go on for a while.
        if device == 0, let day = revokeDay(client, context: context) {
            writer.row.put(SyntheticInstant(day: day, minuteOfDay: 720, offsetSeconds: 0), .isoUTC)
        } else {
            writer.row.putEmpty()
        }
        writer.row.put(secret)
        writer.row.append(secret)
        try writer.endRow()
    }

    /// A reminder of one task (about a third of them): scheduled 45 minutes
    /// before its time, now and then in the night or after it was done.
    mutating func remind(
        taskID: SyntheticID, task: SyntheticTask, slot: Int, outcome: SyntheticOutcome, client: SyntheticClient,
        day: Int, zone: Int
    ) throws {
        guard !task.isInformational else { return }
        var rng = SplitMix64(seed: context.seed, stream: 0x9058, client.index, day * 16 + slot)
        guard rng.chance(0.33) else { return }
        var scheduled = context.zones.instant(zone: zone, day: day, minuteOfDay: max(task.minute - 45, 360))
        let roll = rng.unit()
        if roll < 0.04, outcome.kind == .completed {
            scheduled = outcome.doneAt.adding(seconds: 1200)  // after it was done: wasted
        } else if roll < 0.07 {
            scheduled = context.zones.instant(zone: zone, day: day, minuteOfDay: 23 * 60 + 20)  // in the night
        }
        let category: String
        switch task.kind.name {
        case SyntheticVocabulary.bytes("WORKOUT"): category = "WORKOUT_DUE"
        case SyntheticVocabulary.bytes("MEAL"): category = "MEAL_DUE"
        case SyntheticVocabulary.bytes("CHECK_IN"): category = "CHECK_IN_DUE"
        default: category = "COACH_TASK"
        }
        let intent = SyntheticID(.pushIntent, seed: context.seed, client.index, day, slot)
        try send(
            intent: intent, recipient: client.user, client: client, context: "DAILY_EXECUTION", record: taskID,
            category: category, scheduled: scheduled,
            installation: Self.installationID(client, device: 0, context: context),
            revokedFrom: Self.revokeDay(client, context: self.context), day: day, rng: &rng)
    }

    /// A day's other pushes: coach messages to the client, risk flags to the coach.
    mutating func messages(client: SyntheticClient, day: Int, zone: Int) throws {
        var rng = SplitMix64(seed: context.seed, stream: 0x9059, client.index, day)
        if rng.chance(0.25) {
            let scheduled = context.zones.instant(zone: zone, day: day, minuteOfDay: 480 + rng.below(720))
            try send(
                intent: SyntheticID(.pushIntent, seed: context.seed, client.index, day, 50), recipient: client.user,
                client: client, context: "MESSAGING",
                record: SyntheticID(.pushIntent, seed: context.seed, client.index, day, 51),
                category: "MESSAGE", scheduled: scheduled,
                installation: Self.installationID(client, device: 0, context: context),
                revokedFrom: Self.revokeDay(client, context: context), day: day, rng: &rng)
        }
        if rng.chance(0.02) {
            let scheduled = context.zones.instant(zone: zone, day: day, minuteOfDay: 540 + rng.below(600))
            try send(
                intent: SyntheticID(.pushIntent, seed: context.seed, client.index, day, 52), recipient: client.coach,
                client: client, context: "RISK", record: client.relationship, category: "RISK_FLAG",
                scheduled: scheduled,
                installation: Self.coachInstallationID(client, context: context), revokedFrom: nil, day: day,
                rng: &rng)
        }
    }

    private mutating func send(
        intent: SyntheticID, recipient: SyntheticID, client: SyntheticClient, context sourceContext: String,
        record: SyntheticID, category: String, scheduled: SyntheticInstant, installation: SyntheticID,
        revokedFrom: Int?, day: Int, rng: inout SplitMix64
    ) throws {
        let created = scheduled.adding(seconds: -3600)
        guard context.isExported(created) else { return }
        // Two weeks after a token was revoked the platform has stopped sending to it.
        let revoked = revokedFrom.map { day > $0 } ?? false
        if let revokedFrom, day > revokedFrom + 14 { return }
        let sent = scheduled.adding(seconds: 1 + rng.below(20))
        let statusRoll = rng.unit()
        var status: String
        var code: [UInt8]?
        var attempts = 1
        switch statusRoll {
        case ..<0.84: status = "DELIVERED"
        case ..<0.90: status = "SENT"
        case ..<0.93:
            status = "FAILED"
            code = Self.failureCodes[rng.below(Self.failureCodes.count)]
        case ..<0.95:
            status = "TRANSIENT_FAILED"
            code = Self.transientCodes[rng.below(Self.transientCodes.count)]
            attempts = 2 + rng.below(2)
        case ..<0.97: status = "THROTTLED"
        default: status = "PENDING"
        }
        if revoked && rng.chance(0.5) {
            status = "INVALID_TOKEN"
            code = Self.tokenCodes[rng.below(Self.tokenCodes.count)]
        }
        let isSent = status != "PENDING" && context.isExported(sent)
        let cancelled = !isSent && rng.chance(0.3)
        intents.row.put(intent)
        intents.row.put(recipient)
        intents.row.put(client.workspace)
        intents.row.put(client.relationship)
        intents.row.put(SyntheticVocabulary.bytes(sourceContext))
        intents.row.put(record)
        // About one intent in a thousand has a category the platform does
        // not send (rejected, and its delivery with it: unknown_intent).
        intents.row.put(SyntheticVocabulary.bytes(rng.chance(0.001) ? "PROMO" : category))
        intents.row.put(SyntheticVocabulary.bytes("NORMAL"))
        intents.row.put(Self.secret)
        intents.row.put(Self.payload)
        intents.row.hex(intent.low, digits: 16)
        intents.row.comma()
        intents.row.put(scheduled, .isoUTC)
        intents.row.put(SyntheticVocabulary.bytes(isSent ? "SENT" : cancelled ? "CANCELLED" : "READY"))
        intents.row.instant(created, .isoUTC)
        try intents.endRow()
        guard !cancelled else { return }
        let delivery = SyntheticID(.pushDelivery, seed: context.seed, Int(truncatingIfNeeded: intent.high), 0)
        deliveries.row.put(delivery)
        deliveries.row.put(intent)
        deliveries.row.put(installation)
        deliveries.row.put(Self.providers[rng.chance(0.9) ? 0 : 1 + rng.below(2)])
        deliveries.row.put(SyntheticVocabulary.bytes(isSent || status == "PENDING" ? status : "PENDING"))
        deliveries.row.putInteger(attempts)
        if let code { deliveries.row.put(code) } else { deliveries.row.putEmpty() }
        deliveries.row.put(code == nil ? [] : Self.payload)
        // About one delivery in a thousand has a sent_at without an offset (rejected).
        deliveries.row.put(isSent ? sent : nil, rng.chance(0.001) ? .missingOffset : .isoOffset)
        if isSent && code != nil { deliveries.row.instant(sent.adding(seconds: 2), .isoUTC) }
        try deliveries.endRow()
        // A receipt for most sent deliveries; a few contradict the status.
        guard isSent, rng.chance(0.6) else { return }
        let received = sent.adding(seconds: 900 + rng.below(1800))
        guard context.isExported(received) else { return }
        let ok = rng.chance(status == "DELIVERED" || status == "SENT" ? 0.97 : 0.2)
        receipts.row.put(SyntheticID(.pushReceipt, seed: context.seed, Int(truncatingIfNeeded: delivery.high), 0))
        receipts.row.put(delivery)
        receipts.row.put(Self.providers[0])
        receipts.row.put(SyntheticVocabulary.bytes(ok ? "OK" : "ERROR"))
        let codes = revoked ? Self.tokenCodes : Self.failureCodes
        if ok { receipts.row.putEmpty() } else { receipts.row.put(codes[rng.below(codes.count)]) }
        receipts.row.put(Self.payload)
        receipts.row.instant(received, .isoUTC)
        try receipts.endRow()
    }
}
