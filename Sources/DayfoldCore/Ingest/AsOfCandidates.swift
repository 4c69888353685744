/// The rows of a drop whose fate depends on the as-of, kept by an ingest as
/// of an as-of series' last step (`IngestOptions.keepsAsOfCandidates`), so
/// that every earlier step's drop is derived from them (`AsOfSteps`)
/// instead of reading and deciding the whole drop again (SPEC §12: the
/// series in one pass over the inputs).
///
/// Why these rows and no others: SPEC §9 ignores an event, value entry,
/// journal revision or health sample that happened after the as-of T, and an
/// ignored row takes no part in duplicate tests. Every other decision
/// (rejects, instances and their dedup, logs' tasks, cards, subjects) reads
/// no as-of, so it is the same at every step. A row ignored at the last
/// step is ignored at every earlier one; the rows kept are those that pass
/// every check but the as-of and the duplicate ones, with what their
/// duplicate tests compare.
public struct AsOfCandidates: Sendable {
    /// The ids of `logEvents` and `events` (`StatusEvent.id` indexes them;
    /// a step's drop uses this table as its `eventIDs`).
    var eventIDs = ByteStrings()
    /// Each accepted workout log's one status event, in the order ingest
    /// appends them (before any status event); kept at a step when its
    /// instant is not after it (a log's task stays either way, SPEC §9).
    var logEvents: [StatusEvent] = []
    /// Status events naming an accepted task, in file order.
    var events = TaskRowCandidates<StatusEvent>()
    /// Value entries naming an accepted task, in file order.
    var values = TaskRowCandidates<ValueEntry>()
    /// Journal revisions neither rejected nor after the last step, in file order.
    var journal: [JournalRevision] = []
    /// Accepted health samples with their local day, in the order ingest
    /// folded them into the day aggregates (users one after the other, each
    /// user's samples in acceptance order).
    var healthSamples: [HealthSampleOnDay] = []
    /// `HealthSampleOnDay.user` indexes these user ids.
    var healthUsers: [String] = []

    init() {}
}

/// Events or value entries that passed every check but the as-of and the
/// duplicate ones (SPEC §1.3: same id, or same offline-retry key; the first
/// in file order not ignored is kept), with the keys those tests compare.
struct TaskRowCandidates<Row: Sendable>: Sendable {
    var rows: [Row] = []
    var instants: [Instant] = []
    /// Fingerprints of the ids (`TaskRowDeduplicator.idKey`).
    var idKeys: [UInt64] = []
    /// Fingerprints of the offline-retry keys; nil for a row without one.
    /// (Instants and keys are columns of their own: a step's duplicate
    /// tests read them and no row.)
    var retryKeys: [UInt64?] = []

    var count: Int { rows.count }

    mutating func append(_ row: Row, at instant: Instant, idKey: UInt64, retryKey: UInt64?) {
        rows.append(row)
        instants.append(instant)
        idKeys.append(idKey)
        retryKeys.append(retryKey)
    }
}

/// An accepted health sample and the local day of its start in its user's zone.
struct HealthSampleOnDay: Sendable {
    var user: Int32
    var day: LocalDate
    var metric: Metric
    var value: Double
    var source: Int32
    var start: Instant
    var end: Instant?
    var order: Int
}
