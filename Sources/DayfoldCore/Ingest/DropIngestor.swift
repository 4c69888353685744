import Foundation

/// Reads a whole drop, deciding each row's fate in the order SPEC §9 fixes:
/// reject → ignore → duplicate → accepted. Kinds are read so that what a row
/// refers to is known first (subjects, then instances, logs, events…).
///
/// An ingestor is driven by one thread at a time (`SideBySide` hands a fork
/// to its side whole): the state its row loops touch per row skips the
/// run-time exclusivity check (see `LoopState`).
public final class DropIngestor {
    let layout: DropLayout
    let options: IngestOptions
    @exclusivity(unchecked) var drop: IngestedDrop
    /// Relationship id bytes → relationship index (handed by value to the
    /// preparing threads, once the subjects are read).
    @exclusivity(unchecked) var relationshipLookup = RelationshipLookup()
    /// Task ids of instances and logs that were read (rejected rows never get here).
    @exclusivity(unchecked) var taskIDs = ByteKeyTable()
    /// Per task id: what an event naming it refers to (ids merged into another
    /// by idempotency key share the kept task's state).
    @exclusivity(unchecked) var taskOfID: [TaskReference] = []
    /// Fingerprints of the idempotency keys of instances (logs add theirs) →
    /// a dense index, and per index whether an accepted instance holds it.
    @exclusivity(unchecked) var instanceKeys = FingerprintMap()
    @exclusivity(unchecked) var acceptedInstanceKeys: [Bool] = []

    /// Set when this reading resumes a kept one: `layout` then lists only
    /// the new files, and each kind's reader starts from its kept rows and
    /// tables (`ReadingTables`, taken out piece by piece).
    var resumption: ReadingResumption?
    /// The tables a later resumed reading starts from that the ingestor
    /// keeps nowhere else (`IngestOptions.keepsReadingTables`).
    @exclusivity(unchecked) var tables = ReadingTables()

    /// What a task id resolves to.
    enum TaskReference: BitwiseCopyable {
        case none
        /// The task's index, and its relationship (kept here: events look it
        /// up per row, and the task table is too large to stay in cache).
        case accepted(Int, relationship: Int)
        /// Dated after its relationship's `ended_on`: rows naming it are ignored.
        case ignored(relationship: Int)
    }

    func relationship(_ id: ArraySlice<UInt8>?) -> Int? { relationshipLookup.relationship(id) }

    /// Interned health strings and the exact-duplicate fingerprints.
    let health = HealthIngestState()

    public init(layout: DropLayout, options: IngestOptions, zones: ZoneCatalog = ZoneCatalog()) {
        self.layout = layout
        self.options = options
        drop = IngestedDrop(zones: zones)
        if options.keepsAsOfCandidates { drop.asOfCandidates = AsOfCandidates() }
    }

    /// A resumed reading's kept accounts and rejects of `kind`, in their
    /// order, before those of the kind's new files (a reading in sequence
    /// reads a kind's files in order, and new files sort after kept ones).
    func installKept(_ kind: String) {
        guard let kept = resumption else { return }
        drop.accounts += kept.accounts.filter { $0.kind == kind }
        drop.rejects += kept.rejects.filter { $0.kind == kind }
    }

    /// In a resumed reading whose new instance tasks went before the kept
    /// log tasks: the index of the first kept log task and how far the new
    /// tasks moved them (events and value entries naming them move too).
    var logTaskShift = (first: 0, by: 0)

    /// `task` as the resumed reading numbers it (`logTaskShift`).
    func shifted(_ task: Int) -> Int { task >= logTaskShift.first ? task + logTaskShift.by : task }

    public func ingest() throws -> IngestedDrop {
        if layout.hasTaskFiles && layout.relationships == nil {
            throw DayfoldError(
                .input, "\(layout.root): task files exist but subjects/relationships.csv is missing",
                fix: "add subjects/relationships.csv (or relationships.csv.zst) to the drop")
        }
        try readRelationships()
        try readTimezones()
        try readGoals()
        try readPreferences()
        // Kinds that do not depend on each other are read side by side, each
        // side by an ingestor that starts from a copy of this one's state and
        // hands back what it added. The result is the same as reading in
        // sequence (same accounts order, same rejects); when two sides fail,
        // the error reported is the one a reading in sequence meets first.
        // The journal and health need only the subjects to be decided: they
        // are read alongside the instances and logs.
        // The sides' forks go to the side thread whole and come back with
        // its result (`SideBySide`): only one thread holds a fork at a time.
        let (journal, health, sideError) = try SideBySide.run((fork(), fork())) { forks in
            // Task rows come before the journal and health in a reading in
            // sequence: an error here is thrown once they have been read.
            let (journal, health) = forks
            do {
                try journal.side.readJournal()
                debugRSS("ingest: journal read")
                try health.side.readHealthCSV()
                try health.side.readHealthXML()
                health.side.aggregateHealthOfUsersWithHistory()
                debugRSS("ingest: health decided")
                return (journal, health, nil as (any Error)?)
            } catch {
                return (journal, health, error)
            }
        } here: {
            try self.readInstances()
            try self.readWorkoutLogs()
            debugRSS("ingest: instances and logs read")
        }
        if let sideError {
            try readStatusEvents()
            try readValueEntries()
            try readInfoCards()
            throw sideError
        }
        // Events and value entries need the tasks, health's days the users'
        // zones (both known now). Events are read on one side, value entries
        // and cards on the other while health samples get their days.
        health.side.drop.userZones = drop.userZones
        // What the client side's facts read, taken now: the events side goes
        // on changing this ingestor's drop.
        var clientInputs = IngestedDrop(zones: drop.zones)
        clientInputs.relationships = drop.relationships
        clientInputs.goals = drop.goals
        clientInputs.preferences = drop.preferences
        clientInputs.userZones = drop.userZones
        clientInputs.journal = journal.side.drop.journal
        clientInputs.journalUsers = journal.side.drop.journalUsers
        let handOverClientInputs = options.clientInputs
        // Push rows name relationships, tasks and users' zones (all known
        // now) and nothing the other kinds read: they are read on a third
        // thread beside the rest (their accounts still join last, as in a
        // reading in sequence, and their errors come last too). They take
        // longest: the rest of the drop is handed over (`taskInputs`) while
        // they are still being read.
        let readsPush = options.readsPush
        let pushSide = SideBySide.begin(fork(withTasks: true)) { push in
            guard readsPush else { return push }
            try push.side.readNotificationPreferences()
            try push.side.readPush()
            debugRSS("ingest: push read")
            return push
        }
        // The journal's fork rides along untouched: it came back with health's.
        // Not `Result { … }`: its closure would keep the forks, which go to `run` whole.
        let values: Fork
        let journalDone: Fork
        let healthDone: Fork
        do {
            (values, journalDone, healthDone) = try SideBySide.run(
                (fork(withTasks: true), journal, health),
                side: { [clientInputs] forks in
                    let (values, journal, health) = forks
                    try values.side.readValueEntries()
                    try values.side.readInfoCards()
                    debugRSS("ingest: values and cards read")
                    health.side.aggregateHealth()
                    debugRSS("ingest: health days")
                    if let handOverClientInputs {
                        var clientInputs = clientInputs
                        clientInputs.healthDays = health.side.drop.healthDays
                        clientInputs.failedImports = health.side.drop.failedImports
                        handOverClientInputs(clientInputs)
                    }
                    return (values, journal, health)
                },
                here: {
                    try self.readStatusEvents()
                    debugRSS("ingest: events read")
                })
        } catch {
            _ = pushSide.finish()  // the push thread is done with its fork before the error leaves
            throw error
        }
        join(values)
        drop.valueEntries = values.side.drop.valueEntries
        drop.infoCards = values.side.drop.infoCards
        if options.keepsReadingTables {
            tables.values = values.side.tables.values
            tables.cardIDs = values.side.tables.cardIDs
            tables.cardKeys = values.side.tables.cardKeys
            for hash in values.side.tables.unknownTasks.slots where hash != 0 { _ = tables.unknownTasks.insert(hash) }
        }
        join(journalDone)
        drop.journal = journalDone.side.drop.journal
        drop.journalUsers = journalDone.side.drop.journalUsers
        join(healthDone)
        drop.healthDays = healthDone.side.drop.healthDays
        if options.keepsReadingTables {
            tables.journalEntries = journalDone.side.tables.journalEntries
            tables.journal = journalDone.side.tables.journal
            tables.health = healthDone.side.health.kept
        }
        if let values = values.side.drop.asOfCandidates?.values,
            let journal = journalDone.side.drop.asOfCandidates?.journal,
            let health = healthDone.side.drop.asOfCandidates
        {
            drop.asOfCandidates?.values = values
            drop.asOfCandidates?.journal = journal
            drop.asOfCandidates?.healthSamples = health.healthSamples
            drop.asOfCandidates?.healthUsers = health.healthUsers
        }
        drop.failedImports = healthDone.side.drop.failedImports
        drop.healthFolderWarnings = healthDone.side.drop.healthFolderWarnings
        // A task's id is its key in the id table: the table's keys are the ids.
        drop.taskIDs = taskIDs.keys
        if options.keepsReadingTables {
            tables.taskIDs = taskIDs
            tables.taskOfID = taskOfID
            tables.instanceKeys = instanceKeys
            tables.acceptedInstanceKeys = acceptedInstanceKeys
        }
        if let handOverTaskInputs = options.taskInputs {
            handOverTaskInputs(drop)
        }
        let push = try pushSide.finish().get()
        join(push)
        drop.notificationPreferences = push.side.drop.notificationPreferences
        drop.push = push.side.drop.push
        if options.keepsReadingTables {
            tables.push = push.side.tables.push
            drop.readingTables = tables
        }
        // Zone ids of the push side's catalog are its own: made again in the drop's.
        if var pushed = drop.push {
            for index in pushed.installations.indices {
                pushed.installations[index].zone = pushed.installations[index].zoneName.flatMap {
                    drop.zones.id(named: $0)
                }
            }
            drop.push = pushed
        }
        options.progress?.reading(bytesDone: layout.totalBytes, rows: drop.rowsRead, force: true)
        return drop
    }

    /// A second ingestor starting from this one's state, and where its own
    /// accounts and rejects will start.
    private struct Fork {
        var side: DropIngestor
        var accounts: Int
        var rejects: Int
    }

    /// `withTasks`: the side also resolves task ids (read-only: tasks are
    /// all known before the sides start).
    private func fork(withTasks: Bool = false) -> sending Fork {
        var sideOptions = options
        sideOptions.progress = nil
        let side = DropIngestor(layout: layout, options: sideOptions, zones: drop.zones)
        side.drop = drop
        side.relationshipLookup = relationshipLookup
        side.resumption = resumption
        side.tables = tables
        side.logTaskShift = logTaskShift
        if withTasks {
            side.taskIDs = taskIDs
            side.taskOfID = taskOfID
        }
        return Fork(
            side: side, accounts: drop.accounts.count, rejects: drop.rejects.count)
    }

    /// Takes the accounts and rejects a side added.
    private func join(_ fork: Fork) {
        drop.accounts += fork.side.drop.accounts[fork.accounts...]
        drop.asOfWindow = drop.asOfWindow.merged(with: fork.side.drop.asOfWindow)
        drop.rejects += fork.side.drop.rejects[fork.rejects...]
    }

    /// Input bytes of the files finished so far, and rows read (for progress).
    var bytesDone: Int64 = 0
    var rowsSoFar = 0

    /// Starts accounting for a file; returns its index.
    func openAccount(_ file: DropLayout.File, kind: String) -> Int {
        if let previous = drop.accounts.last {
            rowsSoFar += previous.rowsRead
            bytesDone += layout.size(of: previous.path)
            options.progress?.reading(bytesDone: bytesDone, rows: rowsSoFar)
        }
        drop.accounts.append(FileAccount(path: file.relativePath, kind: kind))
        return drop.accounts.count - 1
    }

    func source(_ file: DropLayout.File, kind: String) -> CSVSource {
        CSVSource(
            relativePath: file.relativePath, absolutePath: file.absolutePath, kind: kind, keepRaw: options.retainRows,
            hash: options.hashWhileReading)
    }

    func reject(_ file: String, _ line: Int, _ kind: String, _ reason: String, _ raw: String, account: Int) {
        drop.accounts[account].rejected += 1
        drop.rejects.append(RejectedRecord(file: file, line: line, kind: kind, reason: reason, raw: raw))
    }

    /// Reads a CSV file with deferred fates: `body` returns a candidate or nil
    /// (rejected); the caller counts the candidates' fates later.
    func readCSV<Kind: ExportColumns>(
        _ file: DropLayout.File, _ kind: Kind.Type, _ body: (inout CSVRow, Int) throws -> Void
    ) throws {
        try readCSV(file, kind, preparing: nil as (@Sendable (CSVPeek) -> Bool)?) { row, account, _ in
            try body(&row, account)
        }
    }

    /// Reads a file with per-row work done on a preparing thread (see
    /// `CSVSource.read`): `body` gets every row's prepared value, the one
    /// place a kind's fields are parsed and its keys made.
    func readCSV<Kind: ExportColumns, Prepared: Sendable>(
        _ file: DropLayout.File, _ kind: Kind.Type, prepare: @escaping @Sendable (CSVPeek) -> Prepared,
        ahead: ((Prepared) -> Void)? = nil, _ body: (inout CSVRow, Int, Prepared) throws -> Void
    ) throws {
        try readCSV(file, kind, preparing: prepare, ahead: ahead) { row, account, prepared in
            guard let prepared else {
                // Not reached: `CSVSource.read` prepares every row it hands
                // over. Were it ever, the row is rejected, not lost.
                return row.fail("bad_row:unprepared")
            }
            try body(&row, account, prepared)
        }
    }

    private func readCSV<Kind: ExportColumns, Prepared: Sendable>(
        _ file: DropLayout.File, _: Kind.Type, preparing prepare: (@Sendable (CSVPeek) -> Prepared)?,
        ahead: ((Prepared) -> Void)? = nil, _ body: (inout CSVRow, Int, Prepared?) throws -> Void
    ) throws {
        let kind = Kind.kind
        let columns = Kind.readerColumns
        let account = openAccount(file, kind: kind)
        var fileAccount = drop.accounts[account]
        var rejects: [RejectedRecord] = []
        var source = source(file, kind: kind)
        source.blankedInRaw = Kind.neverRead
        try source.read(
            columns: columns, account: &fileAccount, rejects: &rejects, prepare: prepare, ahead: ahead
        ) { row, prepared in
            try body(&row, account, prepared)
        }
        drop.accounts[account].rowsRead = fileAccount.rowsRead
        drop.accounts[account].rejected += fileAccount.rejected
        drop.accounts[account].accepted += fileAccount.accepted
        drop.accounts[account].duplicate += fileAccount.duplicate
        drop.accounts[account].ignored += fileAccount.ignored
        drop.accounts[account].unknownColumns = fileAccount.unknownColumns
        drop.accounts[account].missingHeaderColumn = fileAccount.missingHeaderColumn
        drop.accounts[account].columnHints = fileAccount.columnHints
        drop.accounts[account].sha256 = fileAccount.sha256
        drop.rejects += rejects
    }

    func count(_ account: Int, _ fate: RowFate) {
        drop.accounts[account].count(fate)
    }

    /// Whether `instant` is after the as-of; every comparison is noted in
    /// `IngestedDrop.asOfWindow` (the as-ofs the reading holds for).
    func isAfterAsOf(_ instant: Instant) -> Bool {
        let after = instant > options.asOf
        drop.asOfWindow.note(instant, after: after)
        return after
    }

    /// About how many rows `files` hold, from their sizes and a row length:
    /// only to size id tables up front (a wrong guess costs a regrowth or
    /// some memory, never a different result). Callers pass about 1.25× the
    /// typical row length, so the guess is low rather than high: a table
    /// sized a power of two too large misses the cache on every probe.
    /// A `.zst` file (a partition's spill) counts 4× its size, about what
    /// zstd −3 makes of these files.
    func expectedRows(_ files: [DropLayout.File], bytesPerRow: Int) -> Int {
        Int(csvBytes(files, zstdRatio: 4)) / bytesPerRow
    }

    private func csvBytes(_ files: [DropLayout.File], zstdRatio: Int64) -> Int64 {
        files.reduce(Int64(0)) {
            let size = layout.size(of: $1.relativePath)
            return $0 + ($1.relativePath.hasSuffix(".zst") ? size * zstdRatio : size)
        }
    }

    /// Room for the rows `files` may hold, for arrays that rows are only
    /// appended to: a high guess (from a short row length). Capacity that is
    /// never written costs no memory (its pages are never touched), while
    /// outgrowing it copies the array to a new one, whose pages the kernel
    /// must then fault in and zero. (`.zst` files count 6× their size.)
    func roomForRows(_ files: [DropLayout.File], shortestRow: Int) -> Int {
        Int(csvBytes(files, zstdRatio: 6)) / shortestRow
    }
}
