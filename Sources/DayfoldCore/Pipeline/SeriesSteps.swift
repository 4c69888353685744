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
    /// The last step's client side: the next step's waits for it.
    private var lastClientSide: BackgroundValue<ClientSide>?

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
        begun(asOf: step, keepingClientTables: keepingClientTables).finished()
    }

    /// `carried(asOf:keepingClientTables:)` with its client side (client
    /// day tables, Progress, intake checks, days with journal entries)
    /// still being computed: the client side of the steps is a chain of its
    /// own, each link carried from the one before, beside the task side's.
    /// The caller takes the next step without waiting for this one's client
    /// side, which whoever finishes the step (`PendingStep.finished()`)
    /// waits for: the two chains and the writing keep both cores busy
    /// (waiting for each step's client side left a core idle a fifth of the
    /// time).
    mutating func begun(asOf step: ParsedInstant, keepingClientTables: Bool = true) -> PendingStep {
        let journal = derived.journalWinners(asOf: step.instant)
        let drop = derived.drop(
            asOf: step.instant, taskRows: false, journal: journal, healthDays: healthDays.advance(to: step.instant))
        let (derived, clientTables, previous, progressOptions) = (derived, clientTables, previous, progressOptions)
        let before = lastClientSide
        let clientSide = BackgroundValue {
            // The tables are carried from the step before's: its link goes first.
            before?.waitUntilDone()
            let journalByUser = ClientDayBuilder.journalByUser(drop, days: derived.journalDays(journal))
            let changed = previous.flatMap { derived.changedClientDays(from: $0, to: journal) }
            let tables = clientTables.advance(drop, asOf: step, journalByUser: journalByUser, changed: changed)
            let progress = ProgressCalculator.ranges(drop, tables: tables, options: progressOptions)
            let intakes = FactsStage.intakeChecks(
                drop, tables: tables, today: FactsStage.today(drop, asOf: step), options: progressOptions)
            return ClientSide(
                client: FactsStage.ClientSide(tables: keepingClientTables ? tables : [], progress: progress),
                intakes: intakes, journalDays: FactsStage.journalActivity(journalByUser))
        }
        lastClientSide = clientSide
        let (outcomes, byRelationship, recomputed) = taskFacts.advance(to: step.instant)
        let tables = days.advance(
            drop, outcomes: outcomes, recomputed: recomputed, today: FactsStage.today(drop, asOf: step))
        self.previous = journal
        return PendingStep(
            drop: drop, outcomes: outcomes, signalTasks: taskFacts.signalTasks, clientSide: clientSide,
            byRelationship: byRelationship, days: tables, config: config, progressOptions: progressOptions, asOf: step)
    }

    /// A step's client side (`begun(asOf:keepingClientTables:)`).
    struct ClientSide: Sendable {
        let client: FactsStage.ClientSide
        /// The signals' intake checks (`FactsStage.intakeChecks`).
        let intakes: [IntakeCheck?]
        let journalDays: [String: Set<LocalDate>]
    }

    /// A step whose task side is carried and whose client side is being computed.
    struct PendingStep: Sendable {
        let drop: IngestedDrop
        let outcomes: [TaskOutcome]
        let signalTasks: SignalTasks
        let clientSide: BackgroundValue<ClientSide>
        let byRelationship: [Set<LocalDate>]
        let days: [[RelationshipDay]]
        let config: PipelineConfig
        let progressOptions: ProgressOptions
        let asOf: ParsedInstant

        /// The step, once its client side is computed (call once).
        func finished() -> Step {
            let client = clientSide.value()
            return Step(
                drop: drop, outcomes: outcomes, signalTasks: signalTasks, client: client.client,
                intakes: client.intakes,
                activity: FactsStage.ActivityDays(byRelationship: byRelationship, journalByUser: client.journalDays),
                days: days, config: config, progressOptions: progressOptions, asOf: asOf)
        }
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
