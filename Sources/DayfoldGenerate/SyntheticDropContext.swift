/// What every per-kind writer needs to know about the drop being generated.
struct SyntheticDropContext: Sendable {
    let seed: UInt64
    let zones: ZoneOffsetTable
    /// The window of local dates (days since 1970-01-01), inclusive.
    let firstDay: Int
    let lastDay: Int
    /// When the export was taken: nothing after it is in the drop.
    let exportInstant: Int64
    /// Before this day, workouts exist only as historical `workout_logs`;
    /// for three days from it, both (the instance wins).
    let instancesEraStart: Int
    /// Rows of days from here on are exported again in a later file.
    let reexportFromDay: Int
    /// Instances of these days are exported PENDING first, settled in the re-export.
    var settlesInReexport: ClosedRange<Int> { reexportFromDay...lastDay }

    init(seed: UInt64, zones: ZoneOffsetTable, firstDay: Int, lastDay: Int) {
        self.seed = seed
        self.zones = zones
        self.firstDay = firstDay
        self.lastDay = lastDay
        exportInstant = Int64(lastDay + 1) * 86_400 + 6 * 3600
        let days = lastDay - firstDay + 1
        instancesEraStart = days >= 16 ? firstDay + days / 8 : firstDay
        reexportFromDay = max(firstDay, lastDay - 1)
    }

    func isExported(_ instant: SyntheticInstant) -> Bool { instant.utcSeconds <= exportInstant }
}
