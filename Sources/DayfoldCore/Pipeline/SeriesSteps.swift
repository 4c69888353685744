/// The facts of an as-of series' steps (SPEC §12), taken in order from one
/// ingest as of the last step: each step's drop is derived (`AsOfSteps`),
/// and its task outcomes, days of activity, relationship day tables,
/// health days and client day tables are the step before's, computed again only where the
/// step can change them (`StepTaskFacts`, `StepRelationshipDays`,
/// `StepClientTables`). The rest of a step's facts (Progress, streaks,
/// signals) is computed from them whole.
struct SeriesSteps {
    private let derived: AsOfSteps
    private let config: PipelineConfig
    private var taskFacts: StepTaskFacts
    private var days: StepRelationshipDays
    private let clientTables = StepClientTables()
    /// The step before's winning journal revisions (nil before the first).
    private var previous: AsOfSteps.JournalWinners?
    /// Progress's windows, targets and goals: the same drop's at every step.
    private let progressOptions: ProgressOptions
    private var healthDays: StepHealthDays

    /// `drop` comes from an ingest with `IngestOptions.keepsAsOfCandidates`
    /// as of the series' last step; `from` is its first step.
    init(_ drop: IngestedDrop, from: Instant, config: PipelineConfig) {
        derived = AsOfSteps(drop, from: from)
        self.config = config
        taskFacts = derived.taskFacts()
        healthDays = derived.healthDaySteps()
        progressOptions = FactsStage.progressOptions(drop, config)
        days = StepRelationshipDays(streakThreshold: config.streakThreshold)
    }

    /// The facts as of `step`: what a plain run as of it computes, in every
    /// table a series keeps. Steps are cheapest taken oldest first; an
    /// earlier step than the one before is computed whole.
    mutating func facts(asOf step: ParsedInstant) -> RunResult {
        carried(asOf: step).facts()
    }

    /// The facts carried to `step` (outcomes, activity, relationship and
    /// client day tables), whose remaining facts (`Step.facts()`: streaks,
    /// signals, push summaries) read nothing the next step changes: a
    /// series takes the next step while they are computed.
    /// `keepingClientTables` false leaves the step's client tables out of
    /// it (its Progress ranges and the signals' intake checks are found
    /// beside them): the history tables take nothing else from them, and a
    /// step that held them would make the next step copy every user's days
    /// to carry them on.
    mutating func carried(asOf step: ParsedInstant, keepingClientTables: Bool = true) -> Step {
        let journal = derived.journalWinners(asOf: step.instant)
        let drop = derived.drop(
            asOf: step.instant, taskRows: false, journal: journal, healthDays: healthDays.advance(to: step.instant))
        // The client side (its day tables, Progress and journal days)
        // beside the task side, as a plain run computes them.
        let (derived, clientTables, previous, progressOptions) = (derived, clientTables, previous, progressOptions)
        let clientSide = BackgroundValue {
            let journalByUser = ClientDayBuilder.journalByUser(drop, days: derived.journalDays(journal))
            let changed = previous.flatMap { derived.changedClientDays(from: $0, to: journal) }
            let tables = clientTables.advance(drop, asOf: step, journalByUser: journalByUser, changed: changed)
            let progress = ProgressCalculator.ranges(drop, tables: tables, options: progressOptions)
            let intakes = FactsStage.intakeChecks(
                drop, tables: tables, today: FactsStage.today(drop, asOf: step), options: progressOptions)
            return (
                FactsStage.ClientSide(tables: keepingClientTables ? tables : [], progress: progress), intakes,
                FactsStage.journalActivity(journalByUser)
            )
        }
        let (outcomes, byRelationship, recomputed) = taskFacts.advance(to: step.instant)
        let tables = days.advance(
            drop, outcomes: outcomes, recomputed: recomputed, today: FactsStage.today(drop, asOf: step))
        let (client, intakes, journalDays) = clientSide.value()
        self.previous = journal
        return Step(
            drop: drop, outcomes: outcomes, signalTasks: taskFacts.signalTasks, client: client, intakes: intakes,
            activity: FactsStage.ActivityDays(byRelationship: byRelationship, journalByUser: journalDays),
            days: tables, config: config, progressOptions: progressOptions, asOf: step)
    }

    /// One step's carried facts, and what it takes to finish them.
    struct Step: Sendable {
        let drop: IngestedDrop
        let outcomes: [TaskOutcome]
        /// The outcomes the signals may read (`StepTaskFacts.signalTasks`).
        let signalTasks: SignalTasks
        /// Its client tables are empty unless the series keeps them.
        let client: FactsStage.ClientSide
        /// The signals' intake checks (`FactsStage.intakeChecks`).
        let intakes: [IntakeCheck?]
        let activity: FactsStage.ActivityDays
        let days: [[RelationshipDay]]
        let config: PipelineConfig
        let progressOptions: ProgressOptions
        let asOf: ParsedInstant

        /// The step's whole facts, as a plain run as of it computes them;
        /// `withSignals` false leaves the risk signals to `signals()`.
        func facts(withSignals: Bool = true) -> RunResult {
            var result = FactsStage.facts(
                drop, outcomes: outcomes, client: client, activity: activity, days: days, config: config,
                asOf: asOf, progressOptions: progressOptions, withSignals: false)
            if withSignals { result.signals = signals() }
            return result
        }

        /// The step's risk signals, as a plain run computes them.
        func signals() -> [RiskSignal] {
            FactsStage.computeSignals(
                drop, outcomes: outcomes, days: days, today: FactsStage.today(drop, asOf: asOf), intakes: intakes,
                activity: activity, readingOnly: signalTasks)
        }
    }
}
