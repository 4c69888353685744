/// A series' health days carried from one step to the next (SPEC §12: the
/// series in one pass): a step aggregates again only the days with a
/// sample between its as-of and the as-of of the days it starts from.
///
/// Why that is exact. A day's aggregate reads its samples whose start is
/// not after the as-of, in their order; between two as-ofs it changes only
/// if one of its samples starts between them. The last step's health days
/// (the ingest's own) are a valid start, and so is any step's.
///
/// Two sets of days are kept: the one the step before handed out (its
/// facts are still being written) and a spare, the step before that's,
/// which no one holds any more by the time the next step is carried, so it
/// is brought up to date in place instead of copied. (The copy of every
/// user's days, each holding references, was most of a step's health work.)
struct StepHealthDays {
    typealias Days = [String: [LocalDate: HealthDay]]

    private let samples: [HealthSampleOnDay]
    /// The days holding a sample after the first step: (user, day, the
    /// positions of its samples in `samples`).
    private let lateDays: [(user: String, day: LocalDate, samples: [Int])]
    /// Those days' samples by start: each sample's start and its day's index
    /// in `lateDays`.
    private let starts: [Instant]
    private let dayOfStart: [Int32]
    private var current: (asOf: Instant, days: Days)?
    private var spare: (asOf: Instant, days: Days)?
    /// Whether each late day is already listed for aggregating again.
    private var marked: [Bool]

    /// `lastDays` are the health days of the series' last step (the
    /// ingest's own), which hold every sample of `samples`.
    init(
        lastDays: Days, samples: [HealthSampleOnDay],
        lateDays: [(user: String, days: [(day: LocalDate, samples: [Int])])]
    ) {
        self.samples = samples
        let flat: [(user: String, day: LocalDate, samples: [Int])] = lateDays.flatMap { user in
            user.days.map { (user.user, $0.day, $0.samples) }
        }
        self.lateDays = flat
        var byStart: [(Instant, Int32)] = []
        for (index, day) in flat.enumerated() {
            for position in day.samples { byStart.append((samples[position].start, Int32(index))) }
        }
        byStart.sort { ($0.0, $0.1) < ($1.0, $1.1) }
        starts = byStart.map(\.0)
        dayOfStart = byStart.map(\.1)
        marked = [Bool](repeating: false, count: flat.count)
        // Taken as of the end of time: the first step aggregates again every
        // day with a sample after it, whatever the last step's as-of was.
        spare = (Instant(micros: .max), lastDays)
    }

    /// The health days as of `asOf` (any as-of from the first step to the last).
    mutating func advance(to asOf: Instant) -> Days {
        // The spare (or, before there is one, a copy of the step before's).
        var next: (asOf: Instant, days: Days)?
        swap(&next, &spare)
        guard var next = next ?? current else { return [:] }
        bringUp(&next, to: asOf)
        spare = current
        current = next
        return next.days
    }

    private mutating func bringUp(_ state: inout (asOf: Instant, days: Days), to asOf: Instant) {
        let (low, high) = (min(state.asOf, asOf), max(state.asOf, asOf))
        var touched: [Int] = []
        for index in starts.countNotAfter(low)..<starts.countNotAfter(high) {
            let day = Int(dayOfStart[index])
            if !marked[day] {
                marked[day] = true
                touched.append(day)
            }
        }
        for index in touched {
            marked[index] = false
            let (user, day, positions) = lateDays[index]
            var aggregate = HealthDay()
            for position in positions where samples[position].start <= asOf {
                let sample = samples[position]
                aggregate.add(
                    sample.metric, sample.value, source: sample.source, start: sample.start, end: sample.end,
                    order: sample.order)
            }
            // In place: a day left without samples is gone, and so is a user
            // left without days.
            state.days[user, default: [:]][day] = aggregate.records > 0 ? aggregate : nil
            if state.days[user]?.isEmpty == true { state.days[user] = nil }
        }
        state.asOf = asOf
    }
}
