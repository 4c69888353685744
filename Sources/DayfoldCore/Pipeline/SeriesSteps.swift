/// The facts of an as-of series' steps (SPEC §12), taken in order from one
/// ingest as of the last step: each step's drop is derived (`AsOfSteps`),
/// and its task outcomes, days of activity and relationship day tables are
/// the step before's, computed again only where the step can change them
/// (`StepTaskFacts`, `StepRelationshipDays`). The rest of a step's facts
/// (the client side, streaks, signals) is computed from them whole.
struct SeriesSteps {
    private let derived: AsOfSteps
    private let config: PipelineConfig
    private var taskFacts: StepTaskFacts
    private var days: StepRelationshipDays

    /// `drop` comes from an ingest with `IngestOptions.keepsAsOfCandidates`
    /// as of the series' last step; `from` is its first step.
    init(_ drop: IngestedDrop, from: Instant, config: PipelineConfig) {
        derived = AsOfSteps(drop, from: from)
        self.config = config
        taskFacts = derived.taskFacts()
        days = StepRelationshipDays(streakThreshold: config.streakThreshold)
    }

    /// The facts as of `step`: what a plain run as of it computes, in every
    /// table a series keeps. Steps are cheapest taken oldest first; an
    /// earlier step than the one before is computed whole.
    mutating func facts(asOf step: ParsedInstant) -> RunResult {
        let drop = derived.drop(asOf: step.instant, taskRows: false)
        let (outcomes, byRelationship, recomputed) = taskFacts.advance(to: step.instant)
        let activity = FactsStage.ActivityDays(
            byRelationship: byRelationship, journalByUser: FactsStage.journalActivity(drop))
        let tables = days.advance(
            drop, outcomes: outcomes, recomputed: recomputed, today: FactsStage.today(drop, asOf: step))
        return FactsStage.facts(
            drop, outcomes: outcomes, activity: activity, days: tables, config: config, asOf: step)
    }
}
