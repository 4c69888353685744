/// Everything a run computed, ready to be written.
public struct RunResult: Sendable {
    public var drop: IngestedDrop
    public var asOf: ParsedInstant
    public var outcomes: [TaskOutcome]
    public var relationshipDays: [[RelationshipDay]]
    public var today: [LocalDate]
    public var streaks: [StreakSummary]
    public var signals: [RiskSignal]
    public var clientTables: [ClientTable]
    public var progress: [ProgressRange]
    /// The push facts (SPEC §11); nil when the drop has no `push/` folder.
    public var push: PushFacts?
    public var timings: [(String, Double)] = []
    /// In a partitioned run: the users this partition owns (their relationships
    /// and Progress rows are its outputs); nil when the run is whole.
    public var owned: Set<String>?

    func owns(user: String) -> Bool { owned?.contains(user) ?? true }
    func owns(relationship index: Int) -> Bool { owns(user: drop.relationships[index].clientUserID) }
}
