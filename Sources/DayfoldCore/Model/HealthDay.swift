/// The health facts of one user on one local day, aggregated as samples are
/// read (SPEC §1.5), each metric as its registry entry's `DailyAggregate`
/// says: running sums, sums per source (the day's value is their maximum),
/// or the latest sample. `add` runs once per sample: it indexes by the
/// metric's position and allocates nothing but a day's first per-source or
/// latest-sample entry.
public struct HealthDay: Sendable {
    public var records = 0
    /// The running sums of the `.sum` metrics.
    private var sums = MetricValues()
    /// The `.maxOfSourceSums` metrics' sums, keyed by `sourceKey`.
    private var sourceSums: [Int64: Double] = [:]
    /// The latest sample so far of each `.latestByStart` metric the day has.
    private var latest: [LatestSample] = []

    private struct LatestSample {
        var position: UInt8
        var start: Instant
        var end: Instant
        var order: Int
        var value: Double
    }

    /// The day's value of `metric`; nil when no sample gave it one.
    public func value(_ metric: Metric) -> Double? {
        switch metric.aggregate {
        case .sum: return sums[metric]
        case .maxOfSourceSums:
            return sourceSums.lazy.filter { $0.key & 0xFF == Int64(metric.position) }.map(\.value).max()
        case .latestByStart: return latest.first { $0.position == metric.position }?.value
        }
    }

    /// Every metric's value on the day.
    public var values: MetricValues {
        var values = MetricValues()
        for metric in Metric.registered { values[metric] = value(metric) }
        return values
    }

    /// One key per (source, metric): the metric's position in the low byte.
    private static func sourceKey(_ source: Int32, _ metric: Metric) -> Int64 {
        Int64(source) << 8 | Int64(metric.position)
    }

    /// Writes the day's aggregates for `ReadingArchive` (the source sums in
    /// key order: the archive's bytes do not depend on a dictionary's order).
    func archive(into writer: inout BinaryArchiveWriter) throws(SystemCallError) {
        writer.write(records)
        writer.write(plain: sums)
        let keys = sourceSums.keys.sorted()
        try writer.write(plain: keys)
        try writer.write(plain: keys.map { sourceSums[$0] ?? 0 })
        try writer.write(plain: latest)
    }

    init() {}

    /// A day as `archive(into:)` wrote it.
    init(from reader: inout BinaryArchiveReader) throws(BinaryArchiveError) {
        records = try reader.readInt()
        sums = try reader.readPlain(MetricValues.self)
        let keys = try reader.readPlainArray(Int64.self)
        let values = try reader.readPlainArray(Double.self)
        guard keys.count == values.count else { throw BinaryArchiveError(reason: "a health day's sums do not pair") }
        sourceSums = Dictionary(zip(keys, values), uniquingKeysWith: { first, _ in first })
        latest = try reader.readPlainArray(LatestSample.self)
    }

    mutating func add(_ metric: Metric, _ value: Double, source: Int32, start: Instant, end: Instant?, order: Int) {
        records += 1
        switch metric.aggregate {
        case .sum: sums[metric] = (sums[metric] ?? 0) + value
        case .maxOfSourceSums: sourceSums[Self.sourceKey(source, metric), default: 0] += value
        case .latestByStart:
            let candidate = LatestSample(
                position: metric.position, start: start, end: end ?? start, order: order, value: value)
            guard let index = latest.firstIndex(where: { $0.position == metric.position }) else {
                latest.append(candidate)
                return
            }
            let current = latest[index]
            if (current.start, current.end, current.order) > (candidate.start, candidate.end, candidate.order) {
                return
            }
            latest[index] = candidate
        }
    }
}
