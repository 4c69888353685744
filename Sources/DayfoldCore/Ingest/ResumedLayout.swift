extension DropLayout {
    /// Whether a health input is an Apple Health export (`export.xml` or a
    /// `.zip` of one) rather than a health CSV file.
    static func isHealthExport(_ path: String) -> Bool { path.hasSuffix(".xml") || path.hasSuffix(".zip") }

    /// The layout a resumed reading reads (`DropIngestor.resumption`): of
    /// every kind only the files that are new since `kept` was read (the
    /// subjects, installations and Apple Health exports are kept whole, and
    /// may not be new). The caller has checked that every file `kept` was
    /// read from is here, unchanged.
    ///
    /// Refuses when a new file would be read among the kept ones rather
    /// than after them (a reading in sequence reads a kind's files in
    /// order: a new file sorting before a kept one would change what "the
    /// last row wins" picks), or when a subjects file is new (every kind's
    /// rows are decided against the subjects).
    func resumed(from kept: ReadingResumption) throws(ResumeRefusal) -> DropLayout {
        var layout = self
        func keptPaths(_ kind: String) -> [String] { kept.accounts.filter { $0.kind == kind }.map(\.path) }
        func newFiles(_ files: [File], kind: String, kept paths: [String]? = nil) throws(ResumeRefusal) -> [File] {
            let paths = paths ?? keptPaths(kind)
            guard files.count >= paths.count, files.prefix(paths.count).map(\.relativePath) == paths else {
                throw ResumeRefusal(reason: "a new \(kind) file sorts before a kept one")
            }
            return Array(files.dropFirst(paths.count))
        }
        layout.instances = try newFiles(instances, kind: InstanceColumn.kind)
        layout.workoutLogs = try newFiles(workoutLogs, kind: WorkoutLogColumn.kind)
        layout.statusEvents = try newFiles(statusEvents, kind: StatusEventColumn.kind)
        layout.valueEntries = try newFiles(valueEntries, kind: ValueEntryColumn.kind)
        layout.infoCards = try newFiles(infoCards, kind: InfoCardColumn.kind)
        layout.journal = try newFiles(journal, kind: JournalColumn.kind)
        // Health: new CSV files after the kept ones; the kept Apple Health
        // exports are not read again, and a new one is read with the drop.
        let keptHealth = keptPaths(HealthColumn.kind)
        layout.healthCSV = try newFiles(
            healthCSV, kind: HealthColumn.kind, kept: keptHealth.filter { !DropLayout.isHealthExport($0) })
        guard healthXML.allSatisfy({ keptHealth.contains($0.file.relativePath) }) else {
            throw ResumeRefusal(reason: "an Apple Health export is new")
        }
        layout.healthXML = []
        layout.pushIntents = try newFiles(pushIntents, kind: PushIntentColumn.kind)
        layout.pushDeliveries = try newFiles(pushDeliveries, kind: PushDeliveryColumn.kind)
        layout.pushReceipts = try newFiles(pushReceipts, kind: PushReceiptColumn.kind)
        // Installations are a state export (the last row of an id wins):
        // the kept ones are kept whole, a new file is read with the drop.
        guard try newFiles(pushInstallations, kind: PushInstallationColumn.kind).isEmpty else {
            throw ResumeRefusal(reason: "a push installations file is new")
        }
        layout.pushInstallations = []
        let subjects: [(File?, String)] = [
            (relationships, RelationshipColumn.kind), (timezones, TimezoneColumn.kind), (goals, GoalColumn.kind),
            (preferences, PreferenceColumn.kind), (notificationPreferences, NotificationPreferenceColumn.kind),
        ]
        for (file, kind) in subjects where (file.map { [$0.relativePath] } ?? []) != keptPaths(kind) {
            throw ResumeRefusal(reason: "the \(kind) file is new")
        }
        layout.notificationPreferences = nil
        return layout
    }
}
