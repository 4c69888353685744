/// The HealthKit types dayfold reads and their unit conversions (SPEC §1.5),
/// looked up in the forms the readers need, all taken from `HealthMetric.registry`.
enum HealthTypes {
    /// The registry's HealthKit types, each at its metric's position.
    private static let table: ByteKeyTable = {
        var table = ByteKeyTable()
        for metric in HealthMetric.registry {
            let (index, isNew) = table.intern(ArraySlice(Array(metric.healthKitType.utf8)))
            precondition(isNew && Int(index) == table.count - 1, "HealthKit type registered twice")
        }
        return table
    }()

    /// Every metric's units, one after the other (`unitRanges` says whose):
    /// `normalize` runs twice per sample, and scanning one flat array
    /// takes no reference on a metric's own list.
    private static let units = HealthMetric.registry.flatMap(\.units)
    private static let unitRanges: [Range<Int>] = {
        var ranges: [Range<Int>] = []
        var start = 0
        for metric in HealthMetric.registry {
            ranges.append(start..<start + metric.units.count)
            start += metric.units.count
        }
        return ranges
    }()

    /// The metric of the type named by the field `bytes[field]`, or nil for another type.
    static func metric(forType bytes: [UInt8], field: Range<Int>) -> Metric? {
        index(forType: bytes, field: field).map(metric(atIndex:))
    }

    /// The type's position among the types read (its metric's position in
    /// the registry), or nil for another type.
    static func index(forType bytes: [UInt8], field: Range<Int>) -> Int? {
        table.find(bytes, field: field).map(Int.init)
    }

    /// The metric of the type at `index` (as `index(forType:)` gives it).
    static func metric(atIndex index: Int) -> Metric { Metric(position: index) }

    /// Converts `value` in `unit` to the metric's unit; nil for a unit the
    /// metric does not accept (units are case-sensitive).
    static func normalize(_ value: Double, unit: String, metric: Metric) -> Double? {
        for index in unitRanges[Int(metric.position)] where units[index].unit == unit {
            return units[index].apply(value)
        }
        return nil
    }
}
