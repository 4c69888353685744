import Foundation

/// Reads a whole drop, deciding each row's fate in the order SPEC §9 fixes:
/// reject → ignore → duplicate → accepted. Kinds are read so that what a row
/// refers to is known first (subjects, then instances, logs, events…).
public final class DropIngestor {
    let layout: DropLayout
    let options: IngestOptions
    var drop: IngestedDrop
    /// Relationship id bytes → relationship index (through `relationshipOfKey`).
    var relationshipTable = ByteKeyTable()
    var relationshipOfKey: [Int] = []
    /// Task ids of instances and logs that were read (rejected rows never get here).
    var taskIDs = ByteKeyTable()
    /// Per task id: what an event naming it refers to (ids merged into another
    /// by idempotency key share the kept task's state).
    var taskOfID: [TaskReference] = []
    /// Fingerprints of the idempotency keys of instances (logs add theirs) →
    /// a dense index, and per index whether an accepted instance holds it.
    var instanceKeys = FingerprintMap()
    var acceptedInstanceKeys: [Bool] = []

    /// What a task id resolves to.
    enum TaskReference {
        case none
        case accepted(Int)
        /// Dated after its relationship's `ended_on`: rows naming it are ignored.
        case ignored(relationship: Int)
    }

    func relationship(_ id: ArraySlice<UInt8>?) -> Int? {
        guard let id, let key = relationshipTable.find(id) else { return nil }
        return relationshipOfKey[Int(key)]
    }

    /// Interned health strings and the exact-duplicate fingerprints.
    let health = HealthIngestState()

    public init(layout: DropLayout, options: IngestOptions, zones: ZoneCatalog = ZoneCatalog()) {
        self.layout = layout
        self.options = options
        drop = IngestedDrop(zones: zones)
    }

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
        try readInstances()
        try readWorkoutLogs()
        try readTaskRowsAndUserData()
        options.progress?.reading(bytesDone: layout.totalBytes, rows: drop.rowsRead, force: true)
        return drop
    }

    /// Once instances and logs are read, the task rows (events, value
    /// entries, info cards) and the user data (journal, health) depend only on
    /// what is known so far and never on each other, so they are read side by
    /// side: user data by a second ingestor that starts from a copy of this
    /// one's state and hands back what it added. The result is the same as
    /// reading them in sequence (same accounts order, same rejects); when both
    /// fail, the task rows' error is the one reported, as before.
    private func readTaskRowsAndUserData() throws {
        var sideOptions = options
        sideOptions.progress = nil
        let side = DropIngestor(layout: layout, options: sideOptions, zones: drop.zones)
        side.drop = drop
        side.relationshipTable = relationshipTable
        side.relationshipOfKey = relationshipOfKey
        let accountsAtFork = drop.accounts.count
        let rejectsAtFork = drop.rejects.count
        let jobs = ParallelJobs<Bool>([
            {
                try self.readStatusEvents()
                try self.readValueEntries()
                try self.readInfoCards()
                return true
            },
            {
                try side.readJournal()
                try side.readHealthCSV()
                try side.readHealthXML()
                return true
            },
        ])
        _ = try jobs.run()
        drop.accounts += side.drop.accounts[accountsAtFork...]
        drop.rejects += side.drop.rejects[rejectsAtFork...]
        drop.journal = side.drop.journal
        drop.healthDays = side.drop.healthDays
        drop.failedImports = side.drop.failedImports
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
            relativePath: file.relativePath, absolutePath: file.absolutePath, kind: kind, keepRaw: options.retainRows)
    }

    func reject(_ file: String, _ line: Int, _ kind: String, _ reason: String, _ raw: String, account: Int) {
        drop.accounts[account].rejected += 1
        drop.rejects.append(RejectedRecord(file: file, line: line, kind: kind, reason: reason, raw: raw))
    }

    /// Reads a CSV file with deferred fates: `body` returns a candidate or nil
    /// (rejected); the caller counts the candidates' fates later.
    func readCSV(
        _ file: DropLayout.File, kind: String, columns: [CSVSource.Column], _ body: (inout CSVRow, Int) throws -> Void
    ) throws {
        let account = openAccount(file, kind: kind)
        var fileAccount = drop.accounts[account]
        var rejects: [RejectedRecord] = []
        try source(file, kind: kind).read(columns: columns, account: &fileAccount, rejects: &rejects) { row in
            try body(&row, account)
        }
        drop.accounts[account].rowsRead = fileAccount.rowsRead
        drop.accounts[account].rejected += fileAccount.rejected
        drop.accounts[account].accepted += fileAccount.accepted
        drop.accounts[account].duplicate += fileAccount.duplicate
        drop.accounts[account].ignored += fileAccount.ignored
        drop.accounts[account].unknownColumns = fileAccount.unknownColumns
        drop.rejects += rejects
    }

    func count(_ account: Int, _ fate: RowFate) {
        drop.accounts[account].count(fate)
    }

    func isAfterAsOf(_ instant: Instant) -> Bool { instant > options.asOf }
}

func columns(_ spec: [(String, Bool)]) -> [CSVSource.Column] {
    spec.map { CSVSource.Column(name: $0.0, required: $0.1) }
}
