/// The health facts of one user on one local day, aggregated as samples are
/// read (SPEC §1.5): sums per metric, step sums per source (the day's steps
/// are their maximum), and the day's latest body-mass sample.
public struct HealthDay: Sendable {
    public var records = 0
    /// energy_kcal, protein_g, carbs_g, fat_g
    public var dietary = Nutrients()
    public var waterMl: Double?
    public var stepsBySource: [Int32: Double] = [:]
    /// (start, end, order, value) of the latest body-mass sample.
    public var bodyMass: (start: Instant, end: Instant, order: Int, value: Double)?

    public var steps: Double? { stepsBySource.values.max() }

    mutating func add(_ metric: Metric, _ value: Double, source: Int32, start: Instant, end: Instant?, order: Int) {
        records += 1
        switch metric {
        case .energyKcal: dietary[0] = (dietary[0] ?? 0) + value
        case .proteinG: dietary[1] = (dietary[1] ?? 0) + value
        case .carbsG: dietary[2] = (dietary[2] ?? 0) + value
        case .fatG: dietary[3] = (dietary[3] ?? 0) + value
        case .waterMl: waterMl = (waterMl ?? 0) + value
        case .steps: stepsBySource[source, default: 0] += value
        case .bodyMassKg:
            let candidate = (start: start, end: end ?? start, order: order, value: value)
            if let current = bodyMass,
                (current.start, current.end, current.order) > (candidate.start, candidate.end, candidate.order)
            {
                return
            }
            bodyMass = candidate
        }
    }
}
