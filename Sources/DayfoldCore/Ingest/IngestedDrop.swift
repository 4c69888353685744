/// Everything ingest keeps from a drop: accepted rows in typed form, with
/// the accounting and rejects of every file. Input to the normalize stage.
public struct IngestedDrop: Sendable {
    public var zones: ZoneCatalog
    public var accounts: [FileAccount] = []
    public var rejects: [RejectedRecord] = []
    /// Instances whose `action_schema` was not valid JSON (read as `{}`; a warning).
    public var invalidSchemaRows = 0
    public var relationships: [Relationship] = [] {
        didSet {
            relationshipIDOrder = relationships.indices.sorted { bytesLess(relationships[$0].id, relationships[$1].id) }
        }
    }
    /// `relationships`' indices in id order, the reports' order, kept with
    /// them: every table of every as-of step asked for it, and sorting the
    /// ids as Strings was a few milliseconds each time.
    public private(set) var relationshipIDOrder: [Int] = []
    public var timezoneRows: [String: [TimezoneRow]] = [:]
    public var goals: [Goal] = []
    public var preferences: [String: String] = [:]
    public var tasks: [DailyTask] = []
    /// Task ids (`DailyTask.id` indexes them); it may hold ids of rows that
    /// were not accepted too.
    public var taskIDs = ByteStrings()
    /// The distinct task kinds (`DailyTask.kind` indexes them).
    public var taskKinds: [String] = []
    public var events: [StatusEvent] = []
    /// The ids of `events` (only compared: they break ties between events at the same instant).
    public var eventIDs = ByteStrings()
    /// The distinct reasons of `events` (`StatusEvent.reason` indexes them).
    public var eventReasons: [String] = []
    public var valueEntries: [ValueEntry] = []
    public var infoCards: [InfoCard] = []
    public var journal: [JournalEntry] = []
    /// The journal's user ids, in order of first sight (`JournalEntry.userIndex` indexes them).
    public var journalUsers: [String] = []
    /// Accepted health samples, aggregated per user and local day.
    public var healthDays: [String: [LocalDate: HealthDay]] = [:]
    /// Users whose Apple Health import could not be read.
    public var failedImports: Set<String> = []
    /// Latest accepted instance zone per client user (the §1.2 fallback).
    public var latestInstanceZone: [String: ZoneID] = [:]

    /// Files of the drop that are not read, with their reason (SPEC §10), from its layout.
    public var unrecognizedFiles: [DropLayout.UnrecognizedFile] = []
    /// One warning per `health/<name>/` folder whose name is no `client_user_id` (SPEC §10).
    public var healthFolderWarnings: [String] = []
    /// The push exports (SPEC §11); nil when the drop has no `push/` folder.
    public var push: PushExports?
    /// notification_preferences.csv, read even without `push/` (a subjects file).
    public var notificationPreferences: [String: [NotificationPreference]] = [:]

    /// The as-ofs a reading as of another one would decide every row of
    /// this one alike for (from its decisions' comparisons with the as-of:
    /// events, value entries, logs, journal revisions, health samples, push
    /// rows, revocations). A run with a state keeps the reading with it
    /// (`ReadingArchive`, `ReadingKeeping`).
    public var asOfWindow = AsOfWindow()

    /// With `IngestOptions.keepsAsOfCandidates`: the rows an earlier as-of
    /// would decide differently (see `AsOfCandidates`); nil otherwise.
    var asOfCandidates: AsOfCandidates?

    /// With `IngestOptions.keepsReadingTables`: what a later reading resumes
    /// from, beside these rows (`ReadingTables`); nil otherwise.
    var readingTables: ReadingTables?

    /// Zone resolution for users (set once instances are read); copies of
    /// the drop share it, and with it the record of the fallbacks used.
    public var userZones: UserZones

    init(zones: ZoneCatalog) {
        self.zones = zones
        userZones = UserZones(zones: zones, history: [:], latestInstanceZone: [:], defaultZone: nil)
    }

    /// The drop without the accepted rows that only the facts read (status
    /// events and their ids, value entries, journal entries). No output
    /// reads them once the facts are computed: a whole run's writers reuse
    /// their memory (on a 1 GB drop about 150 MB that the writing would
    /// otherwise take from the system, page by page).
    func withoutFactInputs() -> IngestedDrop {
        var drop = self
        drop.events = []
        drop.eventIDs = ByteStrings()
        drop.valueEntries = []
        drop.journal = []
        drop.asOfCandidates = nil
        drop.readingTables = nil
        return drop
    }

    /// The index of the CHECK_IN kind in `taskKinds` (the signals read check-ins), if the drop has one.
    var checkInKind: Int32? { taskKinds.firstIndex(of: "CHECK_IN").map(Int32.init) }

    /// The text of an event reason index (`StatusEvent.reason`, `TaskOutcome.skipReason`).
    func eventReason(_ index: Int32?) -> String? {
        index.map { eventReasons[Int($0)] }
    }

    /// The index of a task kind, added when new.
    mutating func taskKind(_ name: String) -> Int32 {
        if let index = taskKinds.firstIndex(of: name) { return Int32(index) }
        taskKinds.append(name)
        return Int32(taskKinds.count - 1)
    }

    /// The task's id as text.
    public func taskID(_ task: DailyTask) -> String { String(decoding: taskIDs[task.id], as: UTF8.self) }

    /// The users the drop's facts are about: relationships' clients and
    /// the users of journal and health rows (the manifest's
    /// `recomputed_users` of a run that computes them all).
    public var userCount: Int {
        var users = Set(relationships.map(\.clientUserID))
        users.formUnion(healthDays.keys)
        var seen: Set<Int32> = []
        for entry in journal where seen.insert(entry.userIndex).inserted {
            users.insert(journalUsers[Int(entry.userIndex)])
        }
        return users.count
    }

    public var rowsRead: Int { accounts.reduce(0) { $0 + $1.rowsRead } }
    public var rowsRejected: Int { accounts.reduce(0) { $0 + $1.rejected } }
}
