import Foundation

/// A drop's reading (`IngestedDrop`) kept in a file of the state, so that a
/// later run on the same files reads it back instead of the drop
/// (SPEC §12: reuse what did not change). On the 1.1 GB benchmark drop the
/// reading is most of a run; reading it back is a few hundred MB of arrays
/// copied into place.
///
/// What makes the reuse exact: a reading is the reading of every as-of in
/// its `AsOfWindow` (no decision of ingest reads the as-of but its
/// comparisons with the rows' instants). The caller checks that, and that
/// every input file is the one read (`RunState.Reading`).
///
/// The format is this build's memory layout (`BinaryArchiveWriter`): a
/// reading is used only by the build that wrote it, and a file that fails
/// its check is not used at all (the run reads the drop).
enum ReadingArchive {
    /// Bumped whenever what is written changes.
    static let format = 4

    /// Writes `drop`'s rows to `path` (a new file, flushed to the disk),
    /// naming the check of the tables file written for it before
    /// (`writeTables`; nil: none). Returns its size and check.
    /// `asOfCandidates` is not kept: a series does not keep its reading.
    ///
    /// The rows only the facts read (events, value entries, the journal)
    /// go first, and each large array is let go from `drop` once written:
    /// a resumed run's facts let go of theirs before the writing, which
    /// then reuses that memory, and the keep beside them should not hold
    /// them longer than it must.
    static func write(_ drop: inout IngestedDrop, tablesCheck: String?, to path: String) throws(SystemCallError) -> (
        size: Int, check: String
    ) {
        var writer = try BinaryArchiveWriter(path: path)
        do {
            writer.write(format)
            writer.write(tablesCheck)
            try archive(&drop, into: &writer)
            let check = try writer.finish()
            return (writer.size, check)
        } catch {
            writer.abandon()
            throw error
        }
    }

    /// Writes the tables a resumed reading starts from (`ReadingTables`)
    /// to a file of their own: a run that reads the rows back alone never
    /// opens it, and a run that resumes reads both files side by side.
    ///
    /// The tables are taken (`consuming`) and let go piece by piece as they
    /// are written (`ReadingTables.archive(releasingInto:)`).
    static func writeTables(_ tables: consuming ReadingTables, to path: String) throws(SystemCallError) -> (
        size: Int, check: String
    ) {
        var writer = try BinaryArchiveWriter(path: path)
        var owned = consume tables
        do {
            writer.write(format)
            try owned.archive(releasingInto: &writer)
            let check = try writer.finish()
            return (writer.size, check)
        } catch {
            writer.abandon()
            throw error
        }
    }

    /// The drop `write` wrote to `path`, with a zone resolver of its own
    /// (no fallback recorded yet), and the check of the tables file it
    /// was written with (nil: none). Throws when what is read is not
    /// whole, of another format or fails its check.
    static func read(from path: String) throws(BinaryArchiveError) -> (drop: IngestedDrop, tablesCheck: String?) {
        var reader = try BinaryArchiveReader(path: path)
        defer { reader.close() }
        try readFormat(&reader)
        let tablesCheck = try reader.readOptionalString()
        let drop = try unarchive(&reader)
        try reader.finish()
        return (drop, tablesCheck)
    }

    /// The tables `writeTables` wrote to `path`, their check, and their
    /// task ids' index, whose keys are the rows' (`ReadingTables.StoredTaskIDs`).
    static func readTables(from path: String) throws(BinaryArchiveError) -> (
        tables: ReadingTables.Stored, check: String
    ) {
        var reader = try BinaryArchiveReader(path: path)
        defer { reader.close() }
        try readFormat(&reader)
        let tables = try ReadingTables.Stored(from: &reader)
        let check = try reader.finish()
        return (tables, check)
    }

    private static func readFormat(_ reader: inout BinaryArchiveReader) throws(BinaryArchiveError) {
        let stored = try reader.readInt()
        guard stored == format else {
            throw BinaryArchiveError(reason: "the stored reading is of format \(stored); this dayfold reads \(format)")
        }
    }

    private static func archive(_ drop: inout IngestedDrop, into out: inout BinaryArchiveWriter) throws(SystemCallError)
    {
        try out.write(plain: taking(&drop.events, leaving: []))
        try write(taking(&drop.eventIDs, leaving: ByteStrings()), into: &out)
        try out.write(plain: taking(&drop.valueEntries, leaving: []))
        try out.write(plain: taking(&drop.journal, leaving: []))
        out.write(drop.zones.zoneNames)
        out.write(json(drop.accounts))
        out.write(drop.rejects.count)
        for reject in drop.rejects {
            out.write(reject.file)
            out.write(reject.line)
            out.write(reject.kind)
            out.write(reject.reason)
            out.write(reject.raw)
        }
        out.write(drop.invalidSchemaRows)
        out.write(plain: drop.asOfWindow.latestNotAfter)
        out.write(plain: drop.asOfWindow.earliestAfter)
        out.write(drop.relationships.count)
        for relationship in drop.relationships {
            out.write(relationship.id)
            out.write(relationship.clientUserID)
            out.write(relationship.coachUserID)
            out.write(relationship.workspaceID)
            out.write(relationship.status)
            out.write(plain: relationship.startedOn)
            out.write(plain: relationship.endedOn)
        }
        try write(drop.timezoneRows, into: &out)
        out.write(drop.goals.count)
        for goal in drop.goals {
            out.write(goal.userID)
            out.write(goal.metric)
            out.write(goal.target)
            out.write(goal.confirmed)
            out.write(plain: goal.effectiveOn)
            out.write(goal.order)
        }
        let preferenceKeys = drop.preferences.keys.sorted(by: bytesLess)
        out.write(preferenceKeys)
        out.write(preferenceKeys.map { drop.preferences[$0] ?? "" })
        try out.write(plain: taking(&drop.tasks, leaving: []))
        try write(taking(&drop.taskIDs, leaving: ByteStrings()), into: &out)
        out.write(drop.taskKinds)
        out.write(drop.eventReasons)
        try out.write(plain: drop.infoCards)
        out.write(drop.journalUsers)
        let healthUsers = drop.healthDays.keys.sorted(by: bytesLess)
        out.write(healthUsers)
        for user in healthUsers {
            let days = drop.healthDays[user] ?? [:]
            let dates = days.keys.sorted()
            try out.write(plain: dates)
            for date in dates { try days[date]?.archive(into: &out) }
        }
        out.write(drop.failedImports.sorted(by: bytesLess))
        try writeZones(drop.latestInstanceZone, into: &out)
        out.write(json(drop.unrecognizedFiles))
        out.write(drop.healthFolderWarnings)
        out.write(drop.push != nil)
        if let push = drop.push { try write(push, into: &out) }
        try write(drop.notificationPreferences, into: &out)
        try write(drop.userZones.history, into: &out)
        try writeZones(drop.userZones.latestInstanceZone, into: &out)
        out.write(plain: drop.userZones.defaultZone)
    }

    private static func unarchive(_ reader: inout BinaryArchiveReader) throws(BinaryArchiveError) -> IngestedDrop {
        let events = try reader.readPlainArray(StatusEvent.self)
        let eventIDs = try readStrings(&reader)
        let valueEntries = try reader.readPlainArray(ValueEntry.self)
        let journal = try reader.readPlainArray(JournalEntry.self)
        var zones = ZoneCatalog()
        for (position, name) in try reader.readStrings().enumerated().dropFirst() {
            guard zones.id(named: name) == ZoneID(position) else {
                throw BinaryArchiveError(reason: "the stored reading names a zone this machine does not know: \(name)")
            }
        }
        var drop = IngestedDrop(zones: zones)
        drop.events = events
        drop.eventIDs = eventIDs
        drop.valueEntries = valueEntries
        drop.journal = journal
        drop.accounts = try decoded([FileAccount].self, from: reader.readString())
        let rejectCount = try reader.readCount(eachAtLeast: 40)
        drop.rejects.reserveCapacity(rejectCount)
        for _ in 0..<rejectCount {
            drop.rejects.append(
                RejectedRecord(
                    file: try reader.readString(), line: try reader.readInt(), kind: try reader.readString(),
                    reason: try reader.readString(), raw: try reader.readString()))
        }
        drop.invalidSchemaRows = try reader.readInt()
        drop.asOfWindow = AsOfWindow(
            latestNotAfter: try reader.readPlain(Instant?.self), earliestAfter: try reader.readPlain(Instant?.self))
        let relationshipCount = try reader.readCount(eachAtLeast: 16)
        var relationships: [Relationship] = []
        relationships.reserveCapacity(relationshipCount)
        for _ in 0..<relationshipCount {
            relationships.append(
                Relationship(
                    id: try reader.readString(), clientUserID: try reader.readString(),
                    coachUserID: try reader.readOptionalString(), workspaceID: try reader.readOptionalString(),
                    status: try reader.readOptionalString(), startedOn: try reader.readPlain(LocalDate?.self),
                    endedOn: try reader.readPlain(LocalDate?.self)))
        }
        drop.relationships = relationships
        drop.timezoneRows = try readArrays(of: TimezoneRow.self, &reader)
        let goalCount = try reader.readCount(eachAtLeast: 16)
        for _ in 0..<goalCount {
            drop.goals.append(
                Goal(
                    userID: try reader.readString(), metric: try reader.readString(), target: try reader.readDouble(),
                    confirmed: try reader.readBool(), effectiveOn: try reader.readPlain(LocalDate.self),
                    order: try reader.readInt()))
        }
        let preferenceKeys = try reader.readStrings()
        let preferenceValues = try reader.readStrings()
        guard preferenceKeys.count == preferenceValues.count else { throw unpaired("preferences") }
        drop.preferences = Dictionary(zip(preferenceKeys, preferenceValues), uniquingKeysWith: { first, _ in first })
        drop.tasks = try reader.readPlainArray(DailyTask.self)
        drop.taskIDs = try readStrings(&reader)
        drop.taskKinds = try reader.readStrings()
        drop.eventReasons = try reader.readStrings()
        drop.infoCards = try reader.readPlainArray(InfoCard.self)
        drop.journalUsers = try reader.readStrings()
        let healthUsers = try reader.readStrings()
        drop.healthDays.reserveCapacity(healthUsers.count)
        for user in healthUsers {
            let dates = try reader.readPlainArray(LocalDate.self)
            var days: [LocalDate: HealthDay] = [:]
            days.reserveCapacity(dates.count)
            for date in dates { days[date] = try HealthDay(from: &reader) }
            drop.healthDays[user] = days
        }
        drop.failedImports = Set(try reader.readStrings())
        drop.latestInstanceZone = try readZones(&reader)
        drop.unrecognizedFiles = try decoded([DropLayout.UnrecognizedFile].self, from: reader.readString())
        drop.healthFolderWarnings = try reader.readStrings()
        if try reader.readBool() { drop.push = try readPush(&reader) }
        drop.notificationPreferences = try readArrays(of: NotificationPreference.self, &reader)
        let history = try readArrays(of: TimezoneRow.self, &reader)
        let latest = try readZones(&reader)
        let defaultZone = try reader.readPlain(ZoneID?.self)
        drop.userZones = UserZones(
            zones: drop.zones, history: history, latestInstanceZone: latest, defaultZone: defaultZone)
        return drop
    }

    // MARK: - Pieces

    private static func write(_ strings: ByteStrings, into out: inout BinaryArchiveWriter) throws(SystemCallError) {
        let (bytes, offsets) = strings.storage
        try out.write(plain: bytes)
        try out.write(plain: offsets)
    }

    private static func readStrings(_ reader: inout BinaryArchiveReader) throws(BinaryArchiveError) -> ByteStrings {
        let bytes = try reader.readPlainArray(UInt8.self)
        let offsets = try reader.readPlainArray(Int.self)
        guard let strings = ByteStrings(validating: bytes, offsets: offsets) else { throw unpaired("ids") }
        return strings
    }

    /// A map from users to arrays of plain records (time-zone rows,
    /// notification preferences), users in byte order.
    private static func write<Value: BitwiseCopyable>(
        _ arrays: [String: [Value]], into out: inout BinaryArchiveWriter
    ) throws(SystemCallError) {
        let users = arrays.keys.sorted(by: bytesLess)
        out.write(users)
        for user in users { try out.write(plain: arrays[user] ?? []) }
    }

    private static func readArrays<Value: BitwiseCopyable>(
        of _: Value.Type, _ reader: inout BinaryArchiveReader
    ) throws(BinaryArchiveError) -> [String: [Value]] {
        var arrays: [String: [Value]] = [:]
        for user in try reader.readStrings() { arrays[user] = try reader.readPlainArray(Value.self) }
        return arrays
    }

    private static func writeZones(_ zones: [String: ZoneID], into out: inout BinaryArchiveWriter)
        throws(SystemCallError)
    {
        let users = zones.keys.sorted(by: bytesLess)
        out.write(users)
        try out.write(plain: users.map { zones[$0] ?? ZoneCatalog.utc })
    }

    private static func readZones(_ reader: inout BinaryArchiveReader) throws(BinaryArchiveError) -> [String: ZoneID] {
        let users = try reader.readStrings()
        let zones = try reader.readPlainArray(ZoneID.self)
        guard users.count == zones.count else { throw unpaired("zones") }
        return Dictionary(zip(users, zones), uniquingKeysWith: { first, _ in first })
    }

    private static func write(_ push: PushExports, into out: inout BinaryArchiveWriter) throws(SystemCallError) {
        try write(push.users.keys, into: &out)
        out.write(push.installations.count)
        for installation in push.installations {
            out.write(installation.id)
            out.write(installation.user)
            out.write(plain: installation.appSurface)
            out.write(plain: installation.platform)
            out.write(plain: installation.provider)
            out.write(installation.appVersion)
            out.write(plain: installation.zone)
            out.write(installation.zoneName)
            out.write(plain: installation.lastSeenAt)
            out.write(plain: installation.revokedAt)
        }
        try out.write(plain: push.intents)
        try write(push.intentIDs, into: &out)
        try out.write(plain: push.deliveries)
        try write(push.deliveryIDs, into: &out)
        try out.write(plain: push.receipts)
        try write(push.receiptIDs, into: &out)
        out.write(push.preferences.count)
        for preferences in push.preferences { try out.write(plain: preferences) }
    }

    private static func readPush(_ reader: inout BinaryArchiveReader) throws(BinaryArchiveError) -> PushExports {
        var push = PushExports()
        let users = try readStrings(&reader)
        for index in 0..<Int32(users.count) {
            let (position, isNew) = users.withString(index) { push.users.intern($0) }
            guard isNew, position == index else { throw unpaired("push users") }
        }
        let installationCount = try reader.readCount(eachAtLeast: 16)
        push.installations.reserveCapacity(installationCount)
        for _ in 0..<installationCount {
            push.installations.append(
                PushInstallation(
                    id: try reader.readString(), user: try reader.readInt32(),
                    appSurface: try reader.readPlain(PushAppSurface.self),
                    platform: try reader.readPlain(PushPlatform.self),
                    provider: try reader.readPlain(PushProvider.self), appVersion: try reader.readOptionalString(),
                    zone: try reader.readPlain(ZoneID?.self), zoneName: try reader.readOptionalString(),
                    lastSeenAt: try reader.readPlain(Instant?.self), revokedAt: try reader.readPlain(Instant?.self)))
        }
        push.intents = try reader.readPlainArray(PushIntent.self)
        push.intentIDs = try readStrings(&reader)
        push.deliveries = try reader.readPlainArray(PushDelivery.self)
        push.deliveryIDs = try readStrings(&reader)
        push.receipts = try reader.readPlainArray(PushReceipt.self)
        push.receiptIDs = try readStrings(&reader)
        let preferenceCount = try reader.readCount(eachAtLeast: 16)
        for _ in 0..<preferenceCount {
            push.preferences.append(try reader.readPlainArray(NotificationPreference.self))
        }
        return push
    }

    private static func json<Value: Encodable>(_ value: Value) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        // Cannot fail for these types; were it to, "" does not read back and
        // the next run reads the drop.
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }

    private static func decoded<Value: Decodable>(
        _ type: Value.Type, from text: String
    ) throws(BinaryArchiveError) -> Value {
        do {
            return try JSONDecoder().decode(type, from: Data(text.utf8))
        } catch {
            throw BinaryArchiveError(reason: "the stored reading's \(type) does not read back: \(error)")
        }
    }

    private static func unpaired(_ what: String) -> BinaryArchiveError {
        BinaryArchiveError(reason: "the stored reading's \(what) do not fit together")
    }
}
