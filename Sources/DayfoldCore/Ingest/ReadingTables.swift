import Synchronization

/// What ingest knew when it finished a reading, beyond the rows it kept:
/// the tables a later reading of the same files and some new ones starts
/// from, so that only the new files are read (issue 21, step 2 of
/// Incremental.md's plan; `DropIngestor.resumption`). The task kinds' are
/// fields of their own; the push readers', the journal's and the health
/// readers' are grouped below.
///
/// A resumed reading decides a new row exactly as a reading of the whole
/// drop would when the row cannot change a kept decision: its duplicate
/// tests meet the kept rows' keys, its task is looked up among the kept
/// tasks. What would change a kept decision is checked (each check is
/// named where it is made) and makes ingest read the whole drop instead
/// (`ResumeRefusal`).
struct ReadingTables: Sendable {
    /// Task ids of instance and log candidates (`DropIngestor.taskIDs`).
    var taskIDs = ByteKeyTable()
    /// Per task id, what a row naming it refers to (`DropIngestor.taskOfID`).
    var taskOfID: [DropIngestor.TaskReference] = []
    /// Idempotency keys of instance and log candidates, and per key
    /// whether an accepted instance holds it.
    var instanceKeys = FingerprintMap()
    var acceptedInstanceKeys: [Bool] = []
    /// How many instance candidates there were (a task's `order` is its
    /// candidate's position) and how many tasks came from instances (log
    /// tasks follow them).
    var instanceCandidates = 0
    var instanceTasks = 0
    /// How many zones the catalog held once the instances were read: a new
    /// row in a zone the kept instances did not name would have been given
    /// an earlier id by a whole reading.
    var zonesAfterInstances = 0
    /// The duplicate tests' keys of accepted events and value entries.
    var events = TaskRowDeduplicator()
    var values = TaskRowDeduplicator()
    /// Hashes (`ByteKeyTable.hash`) of the task ids rows were rejected for
    /// not knowing (`unknown_task`): a new task with one of them would make
    /// such a row valid.
    var unknownTasks = FingerprintSet()
    /// Hashes of info-card candidates' ids, and their idempotency keys.
    var cardIDs = FingerprintSet()
    var cardKeys = FingerprintSet()
    /// The push kinds' (`PushReadingTables`).
    var push = PushReadingTables()
    /// Journal entry ids of the revisions kept (a new revision of one
    /// would change its winner), and the health readers' state.
    var journalEntries = ByteKeyTable()
    var journal = KeptJournal()
    var health = HealthReadingTables()

    /// Writes the tables and lets each go once written (the keep's is the
    /// only copy, `ReadingKeeping.hold`): a resumed run's facts grow while
    /// the keep writes, and the night peaked while the tables were still
    /// whole. The largest go first. The task ids' keys are not written
    /// again (they are the reading's `IngestedDrop.taskIDs`, `Stored`).
    mutating func archive(releasingInto out: inout BinaryArchiveWriter) throws(SystemCallError) {
        try taking(&push, leaving: PushReadingTables()).archive(into: &out)
        try taking(&instanceKeys, leaving: FingerprintMap()).archive(into: &out)
        for dedup in [taking(&events, leaving: TaskRowDeduplicator()), taking(&values, leaving: TaskRowDeduplicator())]
        {
            try dedup.ids.archive(into: &out)
            try dedup.retries.archive(into: &out)
        }
        try taking(&taskIDs, leaving: ByteKeyTable()).archiveIndex(into: &out)
        try taking(&journalEntries, leaving: ByteKeyTable()).archive(into: &out)
        try out.write(plain: taking(&taskOfID, leaving: []).map(Self.packed))
        try taking(&health, leaving: HealthReadingTables()).archive(into: &out)
        try out.write(plain: acceptedInstanceKeys)
        out.write(instanceCandidates)
        out.write(instanceTasks)
        out.write(zonesAfterInstances)
        try unknownTasks.archive(into: &out)
        try cardIDs.archive(into: &out)
        try cardKeys.archive(into: &out)
        try out.write(plain: journal.winners)
        try out.write(plain: journal.keys)
    }

    init() {}

    /// The tables `archive(releasingInto:)` wrote, before their task ids' keys are
    /// known: they are the rows' (`IngestedDrop.taskIDs`), read from the
    /// other file of the reading at the same time (`resolved(taskIDs:)`).
    struct Stored: Sendable {
        private var taskIDIndex: ByteKeyTable.Index
        private var tables = ReadingTables()

        init(from reader: inout BinaryArchiveReader) throws(BinaryArchiveError) {
            tables.push = try PushReadingTables(from: &reader)
            tables.instanceKeys = try FingerprintMap(from: &reader)
            tables.events = TaskRowDeduplicator(
                ids: try FingerprintSet(from: &reader), retries: try FingerprintSet(from: &reader))
            tables.values = TaskRowDeduplicator(
                ids: try FingerprintSet(from: &reader), retries: try FingerprintSet(from: &reader))
            taskIDIndex = try ByteKeyTable.Index(from: &reader)
            tables.journalEntries = try ByteKeyTable(from: &reader)
            let packed = try reader.readPlainArray(Int64.self)
            // With room to grow by a quarter, as `readPlainArray` leaves it:
            // a night's new ids are appended, and the first one copied the
            // exact-sized array `map` made (31 MB on the 1.1 GB drop).
            tables.taskOfID.reserveCapacity(packed.count + packed.count / 4)
            tables.taskOfID.append(contentsOf: packed.lazy.map(ReadingTables.unpacked))
            tables.health = try HealthReadingTables(from: &reader)
            tables.acceptedInstanceKeys = try reader.readPlainArray(Bool.self)
            tables.instanceCandidates = try reader.readInt()
            tables.instanceTasks = try reader.readInt()
            tables.zonesAfterInstances = try reader.readInt()
            tables.unknownTasks = try FingerprintSet(from: &reader)
            tables.cardIDs = try FingerprintSet(from: &reader)
            tables.cardKeys = try FingerprintSet(from: &reader)
            tables.journal.winners = try reader.readPlainArray(KeptJournal.Winner.self)
            tables.journal.keys = try reader.readPlainArray(Int32.self)
        }

        /// The tables, their task ids' keys `keys` (the reading's task ids).
        /// Throws when the tables do not agree with each other or with the keys.
        consuming func resolved(taskIDs keys: ByteStrings) throws(BinaryArchiveError) -> ReadingTables {
            var resolved = tables
            resolved.taskIDs = try ByteKeyTable(keys: keys, index: taskIDIndex)
            guard resolved.taskOfID.count == resolved.taskIDs.count,
                resolved.acceptedInstanceKeys.count <= resolved.instanceKeys.count,
                resolved.instanceCandidates >= 0, resolved.instanceTasks >= 0
            else {
                throw BinaryArchiveError(reason: "the stored reading tables do not agree with each other")
            }
            return resolved
        }
    }
}

extension ReadingTables {
    /// A task reference in 8 bytes (24 as the enum lies): the task index in
    /// the low 32 bits (all ones for an ignored task), the relationship in
    /// the high 32; -1 for none.
    static func packed(_ reference: DropIngestor.TaskReference) -> Int64 {
        switch reference {
        case .none: return -1
        case .accepted(let task, let relationship):
            return Int64(relationship) << 32 | Int64(UInt32(truncatingIfNeeded: task))
        case .ignored(let relationship): return Int64(relationship) << 32 | 0xFFFF_FFFF
        }
    }

    static func unpacked(_ value: Int64) -> DropIngestor.TaskReference {
        guard value >= 0 else { return .none }
        let relationship = Int(value >> 32)
        let task = value & 0xFFFF_FFFF
        return task == 0xFFFF_FFFF
            ? .ignored(relationship: relationship) : .accepted(Int(task), relationship: relationship)
    }
}

/// A kept reading a run resumes: its rows and accounts, and the tables they
/// were decided with. The run reads only the files that are new since.
///
/// The rows and tables are handed out piece by piece (`take`): each kind's
/// reader, on whichever thread reads it, takes its own once, and the box
/// keeps an empty value in its place. Taken, not copied: a kept array
/// still referenced here (or by another ingestor's copy of the drop) would
/// be copied whole by the first row appended to it, which on the 1 GB
/// benchmark drop cost more than the resumed reading saves.
final class ReadingResumption: Sendable {
    /// The kept accounts and rejects (read by every kind, `installKept`).
    let accounts: [FileAccount]
    let rejects: [RejectedRecord]
    /// The kept reading's zone catalog, and the users' fallback zones its
    /// instances gave (a new instance must not move one).
    let zones: ZoneCatalog
    let latestInstanceZone: [String: ZoneID]
    private let pieces: Mutex<Pieces>

    struct Pieces: Sendable {
        var drop: IngestedDrop
        var tables: ReadingTables
    }

    init(kept: IngestedDrop, tables: ReadingTables) {
        accounts = kept.accounts
        rejects = kept.rejects
        zones = kept.zones
        latestInstanceZone = kept.latestInstanceZone
        var drop = kept
        drop.accounts = []
        drop.rejects = []
        pieces = Mutex(Pieces(drop: drop, tables: tables))
    }

    /// Takes what `body` returns out of the kept rows and tables; `body`
    /// leaves empty values in place of what it took.
    func take<Piece: Sendable>(_ body: (inout Pieces) -> Piece) -> Piece {
        pieces.withLock { body(&$0) }
    }
}

/// Returns `value` and leaves `empty` in its place: a kept piece taken out
/// of `ReadingResumption` without a second reference to its storage.
func taking<Value>(_ value: inout Value, leaving empty: Value) -> Value {
    let taken = value
    value = empty
    return taken
}

/// Why a kept reading cannot be resumed on a drop: a new file would change
/// a decision the reading kept. The run then reads the whole drop, and
/// its manifest says why.
struct ResumeRefusal: Error, Sendable {
    var reason: String
}

/// What the push readers knew when a reading finished (`ReadingTables`):
/// the intents' and deliveries' ids with the rows they resolve to, the
/// intents' idempotency keys, the (intent, installation) pairs of the
/// deliveries that won by id, the receipt ids seen, and the ids rows were
/// rejected for not knowing (a new intent or delivery with one of them
/// would make such a row valid).
struct PushReadingTables: Sendable {
    var intentIDs = PushIDs()
    var intentKeys = FingerprintMap()
    var deliveryIDs = PushIDs()
    var deliveryTargets = FingerprintSet()
    var receiptIDs = FingerprintMap()
    var unknownIntents = FingerprintSet()
    var unknownDeliveries = FingerprintSet()

    init() {}

    func archive(into out: inout BinaryArchiveWriter) throws(SystemCallError) {
        try intentIDs.archive(into: &out)
        try intentKeys.archive(into: &out)
        try deliveryIDs.archive(into: &out)
        try deliveryTargets.archive(into: &out)
        try receiptIDs.archive(into: &out)
        try unknownIntents.archive(into: &out)
        try unknownDeliveries.archive(into: &out)
    }

    init(from reader: inout BinaryArchiveReader) throws(BinaryArchiveError) {
        intentIDs = try PushIDs(from: &reader)
        intentKeys = try FingerprintMap(from: &reader)
        deliveryIDs = try PushIDs(from: &reader)
        deliveryTargets = try FingerprintSet(from: &reader)
        receiptIDs = try FingerprintMap(from: &reader)
        unknownIntents = try FingerprintSet(from: &reader)
        unknownDeliveries = try FingerprintSet(from: &reader)
    }
}

/// The health readers' state when a reading finished (`HealthIngestState`):
/// users, units and sources in their interned order, which sources are the
/// platform's own, the exact-duplicate fingerprints, the acceptance count
/// and the source pairs.
struct HealthReadingTables: Sendable {
    var users: [String] = []
    var units: [String] = []
    var sources: [String] = []
    var selfSource: [Bool] = []
    var seen = FingerprintSet()
    var order = 0
    var pairs = FingerprintMap()

    func archive(into out: inout BinaryArchiveWriter) throws(SystemCallError) {
        out.write(users)
        out.write(units)
        out.write(sources)
        try out.write(plain: selfSource)
        try seen.archive(into: &out)
        out.write(order)
        try pairs.archive(into: &out)
    }
}

extension HealthReadingTables {
    init(from reader: inout BinaryArchiveReader) throws(BinaryArchiveError) {
        self.init(
            users: try reader.readStrings(), units: try reader.readStrings(), sources: try reader.readStrings(),
            selfSource: try reader.readPlainArray(Bool.self), seen: try FingerprintSet(from: &reader),
            order: try reader.readInt(), pairs: try FingerprintMap(from: &reader))
    }
}
