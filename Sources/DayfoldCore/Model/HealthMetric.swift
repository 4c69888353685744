/// What dayfold knows about one metric of the health imports, the client day
/// table and Progress (SPEC §1.5, §6, §10), declared once in `registry`:
/// the HealthKit type lookup, unit conversion, daily aggregate, the client
/// day table's columns and the Progress rules all follow from its entry.
public struct HealthMetric: Sendable {
    /// The metric's name in Progress rows, `goals.csv` and `default_targets`.
    public var name: String
    /// The HealthKit type whose samples give it (the health CSV's `type`, a
    /// `Record`'s `type` in an Apple Health export).
    public var healthKitType: String
    /// The units its samples may carry, case-sensitive; any other unit rejects the sample.
    public var units: [UnitConversion]
    /// How one day's samples make the day's value.
    public var aggregate: DailyAggregate
    /// Which sources give it (and so its columns in `client_days`).
    public var sources: MetricSources
    /// Whether its Progress rows carry a `total` (a sum of body masses means nothing).
    public var hasProgressTotal: Bool

    /// The metrics, in the order of their health columns in `client_days`
    /// (SPEC §6). The journal's metrics come in the journal's nutrient order
    /// (`Nutrients`: energy, protein, carbs, fat). Progress takes them by
    /// name (`Metric.allCases`), so the position here changes only the columns.
    public static let registry: [HealthMetric] = [
        HealthMetric(
            name: "energy_kcal", healthKitType: "HKQuantityTypeIdentifierDietaryEnergyConsumed",
            units: [.same("kcal"), .same("Cal"), .divided("kJ", by: 4.184)], aggregate: .sum,
            sources: .healthAndJournal,
            hasProgressTotal: true),
        HealthMetric(
            name: "protein_g", healthKitType: "HKQuantityTypeIdentifierDietaryProtein",
            units: [.same("g"), .divided("mg", by: 1000), .divided("mcg", by: 1_000_000)], aggregate: .sum,
            sources: .healthAndJournal,
            hasProgressTotal: true),
        HealthMetric(
            name: "carbs_g", healthKitType: "HKQuantityTypeIdentifierDietaryCarbohydrates",
            units: [.same("g"), .divided("mg", by: 1000), .divided("mcg", by: 1_000_000)], aggregate: .sum,
            sources: .healthAndJournal,
            hasProgressTotal: true),
        HealthMetric(
            name: "fat_g", healthKitType: "HKQuantityTypeIdentifierDietaryFatTotal",
            units: [.same("g"), .divided("mg", by: 1000), .divided("mcg", by: 1_000_000)], aggregate: .sum,
            sources: .healthAndJournal,
            hasProgressTotal: true),
        HealthMetric(
            name: "water_ml", healthKitType: "HKQuantityTypeIdentifierDietaryWater",
            units: [.same("mL"), .multiplied("L", by: 1000), .multiplied("fl_oz_us", by: 29.5735)], aggregate: .sum,
            sources: .health, hasProgressTotal: true),
        HealthMetric(
            name: "steps", healthKitType: "HKQuantityTypeIdentifierStepCount", units: [.same("count")],
            aggregate: .maxOfSourceSums, sources: .health, hasProgressTotal: true),
        HealthMetric(
            name: "body_mass_kg", healthKitType: "HKQuantityTypeIdentifierBodyMass",
            units: [.same("kg"), .multiplied("lb", by: 0.45359237), .divided("g", by: 1000)],
            aggregate: .latestByStart, sources: .health, hasProgressTotal: false),
    ]
}

/// How one day's samples of a metric make its daily value (SPEC §1.5).
public enum DailyAggregate: Sendable {
    /// The samples' sum.
    case sum
    /// Each source's sum, then the largest of them: iPhone and Watch both
    /// count the same walk, so their total would count it twice.
    case maxOfSourceSums
    /// The value of the sample with the latest start (ties: the later end,
    /// then the later accepted).
    case latestByStart
}

/// Where the client day table takes a metric from.
public enum MetricSources: Sendable {
    /// Health imports only.
    case health
    /// Health imports and the meal journal (the dietary metrics). Progress
    /// asks the user's preferred source for it.
    case healthAndJournal
}

extension HealthMetric {
    /// The column of the health imports' value in `client_days`: the name,
    /// or `health_<name>` when the journal gives it too.
    var healthColumn: String { sources == .healthAndJournal ? "health_" + name : name }

    /// The column of the journal's value; nil for a health-only metric.
    var journalColumn: String? { sources == .healthAndJournal ? "journal_" + name : nil }

    /// The analyst column of the value Progress would use that day (SPEC
    /// §10); nil for a health-only metric.
    var chosenColumn: String? { sources == .healthAndJournal ? name : nil }
}

/// A unit a metric's samples may carry and how a value in it becomes a value
/// in the metric's own unit. Multiplying and dividing are kept apart, as
/// SPEC §1.5's table writes them: `x / 4.184` and `x * (1 / 4.184)` round
/// differently.
public struct UnitConversion: Sendable {
    public enum Operation: Sendable {
        /// Already in the metric's unit.
        case same
        case multiply(Double)
        case divide(Double)
    }

    /// The unit's text as samples write it (case-sensitive).
    public var unit: String
    public var operation: Operation

    static func same(_ unit: String) -> UnitConversion { UnitConversion(unit: unit, operation: .same) }

    static func multiplied(_ unit: String, by factor: Double) -> UnitConversion {
        UnitConversion(unit: unit, operation: .multiply(factor))
    }

    static func divided(_ unit: String, by divisor: Double) -> UnitConversion {
        UnitConversion(unit: unit, operation: .divide(divisor))
    }

    /// `value`, in this unit, in the metric's unit.
    func apply(_ value: Double) -> Double {
        switch operation {
        case .same: value
        case .multiply(let factor): value * factor
        case .divide(let divisor): value / divisor
        }
    }
}
