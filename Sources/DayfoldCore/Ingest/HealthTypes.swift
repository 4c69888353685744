/// The HealthKit types dayfold reads and their unit conversions (SPEC §1.5).
enum HealthTypes {
    private static let metrics: [Metric] = [.energyKcal, .proteinG, .carbsG, .fatG, .waterMl, .steps, .bodyMassKg]
    private static let table: ByteKeyTable = {
        var table = ByteKeyTable()
        for name in [
            "HKQuantityTypeIdentifierDietaryEnergyConsumed", "HKQuantityTypeIdentifierDietaryProtein",
            "HKQuantityTypeIdentifierDietaryCarbohydrates", "HKQuantityTypeIdentifierDietaryFatTotal",
            "HKQuantityTypeIdentifierDietaryWater", "HKQuantityTypeIdentifierStepCount",
            "HKQuantityTypeIdentifierBodyMass",
        ] {
            _ = table.intern(ArraySlice(Array(name.utf8)))
        }
        return table
    }()

    /// The metric of the type named by the field `bytes[field]`, or nil for another type.
    static func metric(forType bytes: [UInt8], field: Range<Int>) -> Metric? {
        index(forType: bytes, field: field).map { metrics[$0] }
    }

    /// The type's position among the types read (0–6), or nil for another type.
    static func index(forType bytes: [UInt8], field: Range<Int>) -> Int? {
        table.find(bytes, field: field).map(Int.init)
    }

    /// The metric of the type at `index` (as `index(forType:)` gives it).
    static func metric(atIndex index: Int) -> Metric { metrics[index] }

    /// Converts `value` in `unit` to the metric's unit; nil for a unit the
    /// metric does not accept (units are case-sensitive).
    static func normalize(_ value: Double, unit: String, metric: Metric) -> Double? {
        switch metric {
        case .energyKcal:
            switch unit {
            case "kcal", "Cal": return value
            case "kJ": return value / 4.184
            default: return nil
            }
        case .proteinG, .carbsG, .fatG:
            switch unit {
            case "g": return value
            case "mg": return value / 1000
            case "mcg": return value / 1_000_000
            default: return nil
            }
        case .waterMl:
            switch unit {
            case "mL": return value
            case "L": return value * 1000
            case "fl_oz_us": return value * 29.5735
            default: return nil
            }
        case .steps:
            return unit == "count" ? value : nil
        case .bodyMassKg:
            switch unit {
            case "kg": return value
            case "lb": return value * 0.45359237
            case "g": return value / 1000
            default: return nil
            }
        }
    }
}
