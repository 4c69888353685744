/// One value per metric of `HealthMetric.registry`, nil (NULL) where no
/// record gave one, held in place: as an array each client day and health
/// day would allocate, and each copy of a day would retain it.
public struct MetricValues: Sendable, BitwiseCopyable, Equatable {
    /// How many metrics a day can hold. The registry may grow to this many
    /// (checked by `HealthMetricTests`); beyond it, raise it with the storage's size.
    static let capacity = 8

    private var values = InlineArray<8, Double>(repeating: 0)
    /// Bit `position` set: the metric at that position has a value.
    private var present: UInt8 = 0

    public init() {}

    /// The value of the metric at `position` in the registry.
    subscript(position position: Int) -> Double? {
        get { present & (1 << position) != 0 ? values[position] : nil }
        set {
            if let newValue {
                values[position] = newValue
                present |= 1 << position
            } else {
                values[position] = 0
                present &= ~(1 << position)
            }
        }
    }

    public subscript(metric: Metric) -> Double? {
        get { self[position: Int(metric.position)] }
        set { self[position: Int(metric.position)] = newValue }
    }

    public static func == (left: MetricValues, right: MetricValues) -> Bool {
        guard left.present == right.present else { return false }
        for position in 0..<capacity where left.present & (1 << position) != 0 {
            guard left.values[position] == right.values[position] else { return false }
        }
        return true
    }
}
