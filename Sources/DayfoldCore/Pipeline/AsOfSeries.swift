/// `--as-of-series FROM..TO` (SPEC §12): as-of instants 24 h apart, both
/// ends included; each step's `streaks`, `risk_signals`, `progress_ranges`
/// and `relationship_days` are published under `history/<table>/as_of_date=…/`,
/// byte for byte what a plain run as of that instant writes as its snapshot.
public struct AsOfSeries: Sendable, Equatable {
    /// The steps, oldest first; the last is the run's own as-of.
    public let steps: [ParsedInstant]

    /// The tables a series keeps per step.
    public static let tables = ["relationship_days", "progress_ranges", "risk_signals", "streaks"]
    /// A series longer than this is refused (ten years of nights): a typo in a year must not start days of work.
    public static let maximumSteps = 3_660

    public init(steps: [ParsedInstant]) { self.steps = steps }

    /// Reads `FROM..TO`; the gap must be a whole number of days.
    public static func parse(_ text: String) throws -> AsOfSeries {
        let fix =
            "write two instants with offsets a whole number of days apart, e.g. "
            + "2026-01-01T06:00:00Z..2026-03-31T06:00:00Z"
        let parts = text.components(separatedBy: "..")
        guard parts.count == 2, let from = parseAsOf(parts[0]), let to = parseAsOf(parts[1]) else {
            throw DayfoldError(.usage, "--as-of-series: cannot read \"\(text)\" as FROM..TO", fix: fix)
        }
        let day: Int64 = 86_400_000_000
        let gap = to.instant.micros - from.instant.micros
        guard gap >= 0 else {
            throw DayfoldError(.usage, "--as-of-series: \(parts[1]) is before \(parts[0])", fix: fix)
        }
        guard gap % day == 0 else {
            throw DayfoldError(
                .usage, "--as-of-series: \(parts[0]) and \(parts[1]) are not a whole number of days apart",
                fix: fix)
        }
        let count = gap / day + 1
        guard count <= Int64(maximumSteps) else {
            throw DayfoldError(
                .usage, "--as-of-series: \(count) steps; at most \(maximumSteps) (ten years) are run", fix: fix)
        }
        // A step keeps the offset FROM was written with (a user without any
        // zone has its "today" in the as-of's own offset, SPEC §1.2); the last is TO as written.
        var steps = (0..<count).map {
            ParsedInstant(instant: Instant(micros: from.instant.micros + $0 * day), offsetSeconds: from.offsetSeconds)
        }
        steps[steps.count - 1] = to
        return AsOfSeries(steps: steps)
    }

    /// Where a step's copy of `table` goes: the UTC date of the step names its folder.
    public static func path(table: String, step: ParsedInstant) -> String {
        let date = ZoneCatalog().localDate(ZoneCatalog.utc, step.instant)
        return "history/\(table)/as_of_date=\(date)/part-0.parquet"
    }
}
