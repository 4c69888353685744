import Foundation

/// Reads a whole drop, deciding each row's fate in the order SPEC §9 fixes:
/// reject → ignore → duplicate → accepted. Kinds are read so that what a row
/// refers to is known first (subjects, then instances, logs, events…).
public final class DropIngestor {
    let layout: DropLayout
    let options: IngestOptions
    var drop: IngestedDrop
    var relationshipIndex: [String: Int] = [:]
    /// Task id (including ids merged into another by idempotency key) → task index.
    var taskIndex: [String: Int] = [:]
    /// Ids (→ relationship id) of tasks ignored because they are dated after `ended_on`.
    var ignoredTaskIDs: [String: String] = [:]

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
        try readStatusEvents()
        try readValueEntries()
        try readInfoCards()
        try readJournal()
        try readHealthCSV()
        try readHealthXML()
        return drop
    }

    /// Starts accounting for a file; returns its index.
    func openAccount(_ file: DropLayout.File, kind: String) -> Int {
        drop.accounts.append(FileAccount(path: file.relativePath, kind: kind))
        return drop.accounts.count - 1
    }

    func source(_ file: DropLayout.File, kind: String) -> CSVSource {
        CSVSource(relativePath: file.relativePath, absolutePath: file.absolutePath, kind: kind, keepRaw: options.retainRows)
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
