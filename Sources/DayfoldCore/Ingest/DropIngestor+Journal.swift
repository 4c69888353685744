/// journal/: meal entries with revisions (SPEC §1.4). The highest revision of
/// an entry wins (ties: last in file order); a winning deletion removes it.
extension DropIngestor {
    func readJournal() throws {
        // The revisions not rejected nor ignored, in file order, and the account of each.
        var revisions: [JournalRevision] = []
        var accounts: [Int] = []
        revisions.reserveCapacity(roomForRows(layout.journal, shortestRow: 100))
        accounts.reserveCapacity(revisions.capacity)
        // A resumed reading starts from the kept entries, users and
        // winners; a new revision of a kept entry is weighed against the
        // kept winner (below). Journal accounts are counted from `base`.
        let base = drop.accounts.count
        installKept(JournalColumn.kind)
        var resumed = resumption?.take { kept in
            (
                journal: taking(&kept.drop.journal, leaving: []), users: kept.drop.journalUsers,
                entries: taking(&kept.tables.journalEntries, leaving: ByteKeyTable()),
                tables: taking(&kept.tables.journal, leaving: KeptJournal())
            )
        }
        var journalUsers = ByteInterner(strings: resumed?.users ?? [])
        // Each kept piece is moved out of `resumed`, never left referenced
        // twice: the first new row copied a shared id table or journal whole
        // (tens of MB on the 1.1 GB drop).
        var entryIDs = resumed?.entries ?? ByteKeyTable()
        resumed?.entries = ByteKeyTable()
        let keptEntries = entryIDs.count
        // Sized up front (rows are about 170 bytes): grown from empty, the
        // table re-inserted every id at each of a dozen doublings.
        entryIDs.reserve(expectedRows(layout.journal, bytesPerRow: 150))
        // A local function, not a closure value: a closure stored in a `let`
        // may escape, which boxes what it captures and checks every access
        // to the boxes for exclusivity at run time.
        func handle(_ row: inout CSVRow, _ account: Int) {
            // The first problem found is the reject reason: each check
            // returns at once (unwrapping the fields together kept them
            // in a tuple of optionals, destroyed through the runtime).
            // Ids are read in place (`withField`) once the row is known to
            // be valid: a slice retained and released the record's buffer.
            guard row.has(JournalColumn.entryID) else { return row.failMissing(JournalColumn.entryID) }
            guard row.has(JournalColumn.userID) else { return row.failMissing(JournalColumn.userID) }
            guard let cooked = row.instant(JournalColumn.cookedAt),
                let revision = row.integer(JournalColumn.revision)
            else { return }
            let portion = row.number(JournalColumn.portion) ?? 1.0
            let energy = row.number(JournalColumn.energyKcal)
            let protein = row.number(JournalColumn.proteinG)
            let carbs = row.number(JournalColumn.carbsG)
            let fat = row.number(JournalColumn.fatG)
            let deleted = row.bool(JournalColumn.deleted) ?? false
            guard row.rejectReason == nil else { return }
            let userIndex = row.withField(JournalColumn.userID) { journalUsers.intern($0) }
            if self.isAfterAsOf(cooked.instant) {
                row.fate = .ignored
                return
            }
            revisions.append(
                JournalRevision(
                    entryKey: row.withField(JournalColumn.entryID) { entryIDs.intern($0).index }, revision: revision,
                    deleted: deleted,
                    entry: JournalEntry(
                        userIndex: userIndex, cookedAt: cooked,
                        portion: portion,
                        energyKcal: energy, proteinG: protein, carbsG: carbs, fatG: fat)))
            accounts.append(account)
        }
        for file in layout.journal {
            if file.relativePath.hasSuffix(".sqlite") {
                try readJournalDatabase(file, handle)
            } else {
                try readCSV(file, JournalColumn.self, handle)
            }
        }
        drop.asOfCandidates?.journal = revisions
        drop.journalUsers = journalUsers.strings
        var winner = JournalWinners(revisions, entries: entryIDs.count, sparse: resumed != nil)
        var kept = KeptJournal()
        if var taken = resumed.take() {
            drop.journal = taking(&taken.journal, leaving: [])
            kept = taking(&taken.tables, leaving: KeptJournal())
            guard kept.keys.count == drop.journal.count, kept.winners.count == keptEntries else {
                throw ResumeRefusal(reason: "the kept journal's tables do not match its entries")
            }
            resumeJournal(&winner, revisions: revisions, keptEntries: keptEntries, kept: &kept, base: base)
        }
        let keepsTables = options.keepsReadingTables
        if keepsTables {
            kept.winners.append(contentsOf: repeatElement(.none, count: entryIDs.count - kept.winners.count))
        }
        for (position, revision) in revisions.enumerated() {
            guard winner[Int(revision.entryKey)] == position else {
                count(accounts[position], .duplicate)
                continue
            }
            count(accounts[position], .accepted)
            if !revision.deleted { drop.journal.append(revision.entry) }
            if keepsTables {
                kept.winners[Int(revision.entryKey)] = KeptJournal.Winner(
                    revision: revision.revision, account: Int32(accounts[position] - base))
                if !revision.deleted { kept.keys.append(revision.entryKey) }
            }
        }
        if keepsTables {
            tables.journalEntries = entryIDs
            tables.journal = kept
        }
    }

    /// Weighs a resumed reading's new revisions of kept entries against
    /// the kept winners, as a whole reading would (the highest revision
    /// wins, a tie to the later row, and new rows are later): where the
    /// kept winner wins, every new revision of its entry is a duplicate
    /// (`winner` loses the entry); where a new one wins, the kept winner
    /// becomes a duplicate and its entry leaves the journal.
    private func resumeJournal(
        _ winner: inout JournalWinners, revisions: [JournalRevision], keptEntries: Int, kept: inout KeptJournal,
        base: Int
    ) {
        var beaten: [Int32] = []
        for key in winner.won(below: keptEntries) {
            let keptWinner = kept.winners[key]
            guard keptWinner.account >= 0 else { continue }
            if keptWinner.revision > revisions[winner[key]].revision {
                winner[key] = -1
                continue
            }
            let account = base + Int(keptWinner.account)
            drop.accounts[account].accepted -= 1
            drop.accounts[account].duplicate += 1
            beaten.append(Int32(key))
        }
        guard !beaten.isEmpty else { return }
        // Compacted in place: new arrays of exact size were fresh memory,
        // and the night's first new entry then copied the journal again.
        let gone = Set(beaten)
        var remaining = 0
        for position in drop.journal.indices where !gone.contains(kept.keys[position]) {
            drop.journal[remaining] = drop.journal[position]
            kept.keys[remaining] = kept.keys[position]
            remaining += 1
        }
        drop.journal.removeSubrange(remaining...)
        kept.keys.removeSubrange(remaining...)
    }

    /// A journal in SQLite: table `journal_entries`; `line` is the rowid and
    /// `raw` a JSON object of the row (SPEC §9).
    private func readJournalDatabase(_ file: DropLayout.File, _ handle: (inout CSVRow, Int) throws -> Void) throws {
        let account = openAccount(file, kind: JournalColumn.kind)
        let columnSpec = JournalColumn.readerColumns
        do {
            let database = try SQLiteDatabase(path: file.absolutePath)
            let names = try database.columnNames(table: "journal_entries")
            CSVSource.HeaderMapping(names: names, columns: columnSpec).note(
                in: &drop.accounts[account], columns: columnSpec)
            let idColumns = columnSpec.indices.filter { columnSpec[$0].isID }
            let missing = columnSpec.first { $0.required && !names.contains($0.name) }?.name
            let selected = columnSpec.map { names.contains($0.name) ? "\"\($0.name)\"" : "NULL" }
            let query = "SELECT rowid, " + selected.joined(separator: ", ") + " FROM journal_entries ORDER BY rowid"
            try database.forEachRow(query) { values in
                drop.accounts[account].rowsRead += 1
                let record = CSVRecord()
                record.line = Int(values.first.flatMap { $0 }.flatMap { Int($0) } ?? 0)
                var json: [String] = []
                for (position, value) in values.dropFirst().enumerated() {
                    record.appendField(value.map { Array($0.utf8) } ?? [])
                    if names.contains(columnSpec[position].name) {
                        json.append("\(jsonString(columnSpec[position].name)):\(value.map(jsonString) ?? "null")")
                    }
                }
                record.setRaw("{" + json.joined(separator: ",") + "}")
                var row = CSVRow(record: record, columns: columnSpec, indexes: Array(0..<columnSpec.count))
                if let missing {
                    row.fail("missing_column:\(missing)")
                } else if let column = row.firstBadID(idColumns) {
                    row.fail("bad_id:\(column)")
                } else {
                    try handle(&row, account)
                }
                if let reason = row.rejectReason {
                    reject(file.relativePath, record.line, JournalColumn.kind, reason, record.raw, account: account)
                } else if let fate = row.fate {
                    count(account, fate)
                }
            }
        } catch let error as SQLiteError {
            throw DayfoldError(
                .input, "\(file.relativePath): \(error)",
                fix: "check that the file is a SQLite database with a journal_entries table")
        }
    }
}

/// A JSON string literal (for `raw` of SQLite rows, the manifest, evidence).
/// Every control character (C0, DEL, C1) and the line separators U+2028/9
/// are written as `\uXXXX` (hex), so no raw control byte reaches a file.
func jsonString(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        default:
            let value = scalar.value
            if value < 0x20 || (0x7F...0x9F).contains(value) || value == 0x2028 || value == 0x2029 {
                let hex = String(value, radix: 16, uppercase: true)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
    }
    return out + "\""
}

/// What a resumed reading needs of the kept journal (`ReadingTables`): per
/// entry key the winning revision and the journal account that holds it
/// (counted from the first journal account), and the entry key of each
/// entry of the drop's journal, in its order.
struct KeptJournal: Sendable {
    struct Winner: BitwiseCopyable, Sendable {
        var revision: Int64
        var account: Int32
        static let none = Winner(revision: .min, account: -1)
    }
    var winners: [Winner] = []
    var keys: [Int32] = []
}
