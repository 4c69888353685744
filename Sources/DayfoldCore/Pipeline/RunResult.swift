/// Everything a run computed, ready to be written.
public struct RunResult: @unchecked Sendable {
    public var drop: IngestedDrop
    public var asOf: ParsedInstant
    public var outcomes: [TaskOutcome]
    public var relationshipDays: [[RelationshipDay]]
    public var today: [LocalDate]
    public var streaks: [StreakSummary]
    public var signals: [RiskSignal]
    public var clientTables: [ClientTable]
    public var progress: [ProgressRange]
    public var timings: [(String, Double)] = []
}
