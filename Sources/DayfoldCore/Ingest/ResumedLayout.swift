extension DropLayout {
    /// The layout a resumed reading reads (`DropIngestor.resumption`): of
    /// the task kinds only the files that are new since `kept` was read,
    /// every other kind whole. The caller has checked that every file
    /// `kept` was read from is here, unchanged.
    ///
    /// Refuses when a new file would be read among the kept ones rather
    /// than after them (a reading in sequence reads a kind's files in
    /// order: a new file sorting before a kept one would change what "the
    /// last row wins" picks), or when a subjects file is new (every kind's
    /// rows are decided against the subjects).
    func resumed(from kept: IngestedDrop) throws(ResumeRefusal) -> DropLayout {
        var layout = self
        func keptPaths(_ kind: String) -> [String] { kept.accounts.filter { $0.kind == kind }.map(\.path) }
        func newFiles(_ files: [File], kind: String) throws(ResumeRefusal) -> [File] {
            let paths = keptPaths(kind)
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
        let subjects: [(File?, String)] = [
            (relationships, RelationshipColumn.kind), (timezones, TimezoneColumn.kind), (goals, GoalColumn.kind),
            (preferences, PreferenceColumn.kind),
        ]
        for (file, kind) in subjects where (file.map { [$0.relativePath] } ?? []) != keptPaths(kind) {
            throw ResumeRefusal(reason: "the \(kind) file is new")
        }
        return layout
    }
}
