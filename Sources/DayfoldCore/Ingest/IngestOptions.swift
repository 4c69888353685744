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
    /// Told of progress as files and rows are read (nil: nobody is watching).
    public var progress: ProgressReporter?

    public init(asOf: Instant, selfSources: Set<String> = [], defaultTimezone: String? = nil) {
        self.asOf = asOf
        self.selfSources = selfSources
        self.defaultTimezone = defaultTimezone
    }
}
