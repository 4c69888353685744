/// A metric of the health imports, the client day table and Progress (SPEC
/// §1.5, §6): its position in `HealthMetric.registry`, which says all the
/// rest. One byte, so an accepted sample stays small and the per-sample
/// paths index arrays instead of looking a name up.
public struct Metric: Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// Its position in `HealthMetric.registry`.
    let position: UInt8

    init(position: Int) {
        precondition(position >= 0 && position < HealthMetric.registry.count, "metric position out of range")
        self.position = UInt8(position)
    }

    /// The metric named `rawValue`, or nil when no metric has that name.
    public init?(rawValue: String) {
        guard let position = HealthMetric.registry.firstIndex(where: { $0.name == rawValue }) else { return nil }
        self.init(position: position)
    }

    /// A metric code names (a rule about it); the name is checked by tests.
    private init(registered name: String) {
        guard let metric = Metric(rawValue: name) else {
            preconditionFailure("\(name) is not in HealthMetric.registry")
        }
        self = metric
    }

    /// Its name in Progress rows, goals and default targets.
    public var rawValue: String { HealthMetric.registry[Int(position)].name }

    public var description: String { rawValue }

    /// Its entry in the registry.
    public var descriptor: HealthMetric { HealthMetric.registry[Int(position)] }

    /// The metrics in registry order: the order of the health columns of `client_days`.
    static let registered = HealthMetric.registry.indices.map { Metric(position: $0) }

    /// The metrics in Progress order (SPEC §6): by name, in byte order.
    public static let allCases: [Metric] = registered.sorted { bytesLess($0.rawValue, $1.rawValue) }

    /// The metrics the journal also gives, in registry order: their index
    /// here is their index in `Nutrients` (`journalIndex`).
    static let dietary = registered.filter(\.isDietary)

    /// Whether the meal journal also gives it (the dietary metrics: Progress
    /// then asks the user's preferred source, SPEC §6).
    var isDietary: Bool {
        descriptor.sources == .healthAndJournal
    }

    /// Its index in a day's journal `Nutrients`; nil when the journal does not give it.
    var journalIndex: Int? { Metric.journalIndexes[Int(position)] }

    /// How one day's samples of it make the day's value.
    var aggregate: DailyAggregate { Metric.aggregates[Int(position)] }

    private static let journalIndexes = registered.map { dietary.firstIndex(of: $0) }
    // Read once per health sample: a plain array, not the descriptors.
    private static let aggregates = HealthMetric.registry.map(\.aggregate)

    // The metrics code refers to by name.
    public static let energyKcal = Metric(registered: "energy_kcal")
    public static let proteinG = Metric(registered: "protein_g")
    public static let carbsG = Metric(registered: "carbs_g")
    public static let fatG = Metric(registered: "fat_g")
    public static let waterMl = Metric(registered: "water_ml")
    public static let steps = Metric(registered: "steps")
    public static let bodyMassKg = Metric(registered: "body_mass_kg")
}
