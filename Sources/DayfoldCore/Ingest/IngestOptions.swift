/// What ingest needs to know from the pipeline.
public struct IngestOptions: Sendable {
    /// The run's as-of instant: rows that happened after it are ignored.
    public var asOf: Instant
    /// Bundle ids / source names of the platform writing its own journal to Health.
    public var selfSources: Set<String>
    /// Zone for users with no other clue (SPEC §1.2), if configured.
    public var defaultTimezone: String?

    /// False for `validate`: decide and count every row, keep none (memory stays flat).
    public var retainRows = true
    /// Hash CSV files as they are read; false leaves their `sha256` to the
    /// caller (a whole run hashes every input on a thread of its own).
    public var hashWhileReading = true
    /// False for an as-of series' earlier steps: `push/` and
    /// `subjects/notification_preferences.csv` are not read. The history
    /// tables (SPEC §12) are made of tasks, journal and health alone, and
    /// push was about a sixth of each step's reading.
    public var readsPush = true
    /// True for the ingest an as-of series derives its earlier steps from
    /// (`AsOfSteps`): the rows whose fate depends on the as-of are kept in
    /// `IngestedDrop.asOfCandidates`, duplicates included.
    public var keepsAsOfCandidates = false
    /// True for a run that may keep its reading for a later run to resume
    /// (`ReadingKeeping`): the tables a resumed reading starts from are kept in
    /// `IngestedDrop.readingTables` (`ReadingTables`).
    public var keepsReadingTables = false
    /// Told of progress as files and rows are read (nil: nobody is watching).
    public var progress: ProgressReporter?
    /// Where ingest hands over the inputs of the client side's facts
    /// (subjects, journal, health days, failed imports and users' zones) as
    /// soon as they are final, while status events may still be being read:
    /// the run's plan starts the client side on them, filling the core the
    /// events leave free. The drop handed over holds only those fields.
    public var clientInputs: Handover<IngestedDrop>?
    /// Where ingest hands over everything but `push/` (tasks, their ids,
    /// events, value entries, cards, journal, health days) as soon as it is
    /// final, while the push exports are still being read: the task
    /// outcomes, the days of activity and the event snapshot start on it.
    /// Its accounts and rejects are not yet whole (push's join last).
    public var taskInputs: Handover<IngestedDrop>?

    public init(asOf: Instant, selfSources: Set<String> = [], defaultTimezone: String? = nil) {
        self.asOf = asOf
        self.selfSources = selfSources
        self.defaultTimezone = defaultTimezone
    }
}
