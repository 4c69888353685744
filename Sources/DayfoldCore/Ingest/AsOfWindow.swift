/// The as-ofs a reading of a drop holds for: ingest reads the as-of only
/// where it compares a row's instant with it (`DropIngestor.isAfterAsOf`,
/// SPEC §9's ignore; no other decision reads it, as `AsOfCandidates`
/// lists), so a reading as of A is the reading as of every B that puts
/// each instant compared on the same side: from the latest instant found
/// not after A, up to (not including) the earliest found after it.
///
/// A run with a state keeps its reading with this window (`ReadingKeeping`):
/// a retry, or a later as-of before any row the reading ignored, reads it
/// back instead of the drop.
public struct AsOfWindow: Sendable, Equatable {
    /// The latest instant compared that was not after the as-of (nil: none).
    public var latestNotAfter: Instant?
    /// The earliest instant compared that was after the as-of (nil: none).
    public var earliestAfter: Instant?

    public init(latestNotAfter: Instant? = nil, earliestAfter: Instant? = nil) {
        self.latestNotAfter = latestNotAfter
        self.earliestAfter = earliestAfter
    }

    /// Records one comparison of `instant` with the as-of.
    @inline(__always)
    mutating func note(_ instant: Instant, after: Bool) {
        if after {
            if earliestAfter.map({ instant < $0 }) ?? true { earliestAfter = instant }
        } else if latestNotAfter.map({ instant > $0 }) ?? true {
            latestNotAfter = instant
        }
    }

    /// The window of two readings' comparisons together (a side's and the whole).
    func merged(with other: AsOfWindow) -> AsOfWindow {
        var window = self
        if let latest = other.latestNotAfter { window.note(latest, after: false) }
        if let earliest = other.earliestAfter { window.note(earliest, after: true) }
        return window
    }

    /// Whether a reading as of `asOf` decides every row as this one did.
    public func holds(asOf: Instant) -> Bool {
        (latestNotAfter.map { $0 <= asOf } ?? true) && (earliestAfter.map { asOf < $0 } ?? true)
    }
}
