/// What ingest knew of the task kinds when it finished a reading, beyond the
/// rows it kept: the tables a later reading of the same files and some new
/// ones starts from, so that only the new files are read (issue 21, step 2
/// of Incremental.md's plan; `DropIngestor.resumption`).
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
    var health = HealthReadingTables()

    func archive(into out: inout BinaryArchiveWriter) throws(SystemCallError) {
        try taskIDs.archive(into: &out)
        try out.write(plain: taskOfID)
        try instanceKeys.archive(into: &out)
        try out.write(plain: acceptedInstanceKeys)
        out.write(instanceCandidates)
        out.write(instanceTasks)
        out.write(zonesAfterInstances)
        for dedup in [events, values] {
            try dedup.ids.archive(into: &out)
            try dedup.retries.archive(into: &out)
        }
        try unknownTasks.archive(into: &out)
        try cardIDs.archive(into: &out)
        try cardKeys.archive(into: &out)
        try push.archive(into: &out)
        try journalEntries.archive(into: &out)
        try health.archive(into: &out)
    }

    init() {}

    init(from reader: inout BinaryArchiveReader) throws(BinaryArchiveError) {
        taskIDs = try ByteKeyTable(from: &reader)
        taskOfID = try reader.readPlainArray(DropIngestor.TaskReference.self)
        instanceKeys = try FingerprintMap(from: &reader)
        acceptedInstanceKeys = try reader.readPlainArray(Bool.self)
        instanceCandidates = try reader.readInt()
        instanceTasks = try reader.readInt()
        zonesAfterInstances = try reader.readInt()
        events = TaskRowDeduplicator(ids: try FingerprintSet(from: &reader), retries: try FingerprintSet(from: &reader))
        values = TaskRowDeduplicator(ids: try FingerprintSet(from: &reader), retries: try FingerprintSet(from: &reader))
        unknownTasks = try FingerprintSet(from: &reader)
        cardIDs = try FingerprintSet(from: &reader)
        cardKeys = try FingerprintSet(from: &reader)
        push = try PushReadingTables(from: &reader)
        journalEntries = try ByteKeyTable(from: &reader)
        health = try HealthReadingTables(from: &reader)
        guard taskOfID.count == taskIDs.count, acceptedInstanceKeys.count <= instanceKeys.count,
            instanceCandidates >= 0, instanceTasks >= 0
        else {
            throw BinaryArchiveError(reason: "the stored task tables do not agree with each other")
        }
    }
}

/// A kept reading a run resumes: its rows and accounts, and the tables its
/// task kinds were decided with. The run reads only the files that are new
/// since, of the task kinds, and reads the other kinds whole.
struct ReadingResumption: Sendable {
    var kept: IngestedDrop
    var tables: ReadingTables
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
