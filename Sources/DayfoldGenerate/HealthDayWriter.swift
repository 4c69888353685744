import DayfoldCore

/// Writes `health/` CSV: one client's Health samples for one local day —
/// steps from the iPhone and (often) the Watch counting the same walks,
/// water, body mass, third-party nutrition, the platform's own journal
/// written back (a self source), sleep (a type the pipeline ignores), a few
/// exact duplicates and a few rows with an unknown unit.
struct HealthDayWriter {
    static let header = HealthColumn.header

    private var writer: DropPartWriter
    private let context: SyntheticDropContext

    init(root: String, zstd: Bool, maxPartBytes: Int64, context: SyntheticDropContext) throws {
        self.context = context
        writer = try DropPartWriter(
            root: root, folder: "health", baseName: "health", header: Self.header, zstd: zstd,
            maxPartBytes: maxPartBytes)
    }

    mutating func finish() throws -> [DropPartWriter.Part] { try writer.finish(firstNumber: 0) }

    private enum Source { case iPhone, watch, scale, nutritionApp, selfJournal }

    mutating func write(
        client: SyntheticClient, state: inout SyntheticClientState, day: Int, zone: Int, rng: inout SplitMix64
    ) throws {
        let words = SyntheticVocabulary.self
        let walks = 2 + rng.below(2)
        for walkIndex in 0..<walks {
            let minute = 420 + walkIndex * (840 / walks) + rng.below(60)
            let start = context.zones.instant(zone: zone, day: day, minuteOfDay: minute)
            let end = start.adding(seconds: 60 * (10 + rng.below(30)))
            let steps = 200 + rng.below(2800)
            let unit = rng.chance(0.003) ? words.pounds : words.count
            try sample(client, words.stepType, steps, 0, unit, start, end, .iPhone, &rng)
            if client.hasWatch {
                let watchSteps = steps * (92 + rng.below(17)) / 100
                try sample(client, words.stepType, watchSteps, 0, words.count, start, end, .watch, &rng)
            }
        }
        if client.logsWater {
            for drinkIndex in 0..<(2 + rng.below(3)) {
                let at = context.zones.instant(
                    zone: zone, day: day, minuteOfDay: 500 + drinkIndex * 180 + rng.below(90))
                let size = rng.below(3)
                let unitRoll = rng.below(100)
                if client.usesPounds && unitRoll < 20 {
                    try sample(
                        client, words.waterType, [80, 120, 169][size], 1, words.fluidOunces, at, at, .iPhone, &rng)
                } else if unitRoll < 30 {
                    try sample(client, words.waterType, [25, 33, 50][size], 2, words.liters, at, at, .iPhone, &rng)
                } else {
                    try sample(
                        client, words.waterType, [250, 330, 500][size], 0, words.milliliters, at, at, .iPhone, &rng)
                }
            }
        }
        state.massGrams += rng.int(in: -120...100)
        let weekday = CivilCalendar.weekday(ofDay: day)
        if client.weighsIn && (weekday == 1 || weekday == 3 || weekday == 5) {
            let at = context.zones.instant(zone: zone, day: day, minuteOfDay: 410 + rng.below(40))
            if client.usesPounds {
                let hundredthsOfPound = Int((Double(state.massGrams) / 4.5359237).rounded())
                try sample(client, words.bodyMassType, hundredthsOfPound, 2, words.pounds, at, at, .scale, &rng)
            } else {
                try sample(client, words.bodyMassType, state.massGrams / 10, 2, words.kilograms, at, at, .scale, &rng)
            }
        }
        if client.tracksNutritionInHealth {
            for mealIndex in 0..<3 {
                let at = context.zones.instant(
                    zone: zone, day: day, minuteOfDay: [470, 780, 1160][mealIndex] + rng.below(40))
                try sample(
                    client, words.energyType, 3000 + rng.below(5000), 1, words.kilocalories, at, at, .nutritionApp, &rng
                )
                try sample(client, words.proteinType, 100 + rng.below(400), 1, words.grams, at, at, .nutritionApp, &rng)
            }
        }
        if client.writesBackToHealth {
            let at = context.zones.instant(zone: zone, day: day, minuteOfDay: 1300)
            try sample(
                client, words.energyType, 15_000 + rng.below(10_000), 1, words.kilocalories, at, at, .selfJournal, &rng)
        }
        if client.hasWatch {
            try sleep(client, day: day, zone: zone, rng: &rng)
        }
    }

    /// One quantity sample; `value / 10^decimals` in `unit`.
    private mutating func sample(
        _ client: SyntheticClient, _ type: [UInt8], _ value: Int, _ decimals: Int, _ unit: [UInt8],
        _ start: SyntheticInstant, _ end: SyntheticInstant, _ source: Source, _ rng: inout SplitMix64
    ) throws {
        guard context.isExported(end) else { return }
        let style: InstantStyle = rng.chance(0.8) ? .appleHealth : .isoUTC
        writer.row.put(client.user)
        writer.row.put(type)
        writer.row.fixed(value, decimals: decimals)
        writer.row.comma()
        writer.row.put(unit)
        writer.row.put(start, style)
        writer.row.put(end, style)
        appendSource(source, client)
        if rng.chance(0.003) {
            try writer.endRowTwice()
        } else {
            try writer.endRow()
        }
    }

    private mutating func sleep(_ client: SyntheticClient, day: Int, zone: Int, rng: inout SplitMix64) throws {
        let start = context.zones.instant(zone: zone, day: day - 1, minuteOfDay: 1350 + rng.below(60))
        let end = context.zones.instant(zone: zone, day: day, minuteOfDay: 380 + rng.below(60))
        guard context.isExported(end) else { return }
        writer.row.put(client.user)
        writer.row.put(SyntheticVocabulary.sleepType)
        writer.row.put(SyntheticVocabulary.sleepValue)
        writer.row.putEmpty()
        writer.row.put(start, .appleHealth)
        writer.row.put(end, .appleHealth)
        appendSource(.watch, client)
        try writer.endRow()
    }

    /// `source_name,source_bundle_id,device` (the last without its comma).
    private mutating func appendSource(_ source: Source, _ client: SyntheticClient) {
        let words = SyntheticVocabulary.self
        switch source {
        case .iPhone, .watch:
            writer.row.append(client.deviceName)
            writer.row.put(source == .iPhone ? words.iPhoneSuffix : words.watchSuffix)
            writer.row.append(source == .iPhone ? words.bundlePrefix : words.watchBundlePrefix)
            writer.row.put(client.deviceName)
            writer.row.append(source == .iPhone ? words.iPhoneModel : words.watchModel)
        case .scale:
            writer.row.put(words.scaleSource)
        case .nutritionApp:
            writer.row.put(words.nutritionSource)
        case .selfJournal:
            writer.row.put(words.selfSource)
        }
    }
}
