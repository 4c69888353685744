/// One synthetic client and their relationship: ids, zone history, weekly
/// schedule and habits, all drawn once from the seed and the client's index.
struct SyntheticClient: Sendable {
    let index: Int
    let relationship: SyntheticID
    let user: SyntheticID
    let coach: SyntheticID
    let workspace: SyntheticID
    /// `ios-3fa2c1`: the phone that writes events, value entries and Health samples.
    let deviceName: [UInt8]

    /// Index into `ZoneOffsetTable.zones`; `movedZone` applies from local day `moveDay` on.
    let zone: Int
    let movedZone: Int
    let moveDay: Int
    let hasTimezoneRow: Bool

    let status: [UInt8]
    let startedOn: Int
    let endedOn: Int?
    /// Days with tasks (and info cards): the relationship's days in the window.
    let firstTaskDay: Int
    let lastTaskDay: Int

    // The weekly plan: bit w set = on weekday w (0 = Sunday).
    let workoutDays: Int
    let workoutMinute: Int
    let mealSlots: [Int]
    let checkInDays: Int
    let hasWaterHabit: Bool
    let hasSupplement: Bool
    let weighInDays: Int
    let reminderDays: Int
    let breathworkDays: Int

    /// Probability of completing a scored task on an ordinary day.
    let adherence: Double
    let skipRate: Double

    let journals: Bool
    let journalEntriesPerDay: Int
    let health: Bool
    let hasWatch: Bool
    let logsWater: Bool
    let weighsIn: Bool
    let usesPounds: Bool
    let tracksNutritionInHealth: Bool
    let writesBackToHealth: Bool
    let prefersHealth: Bool
    let startMassGrams: Int

    init(index: Int, seed: UInt64, firstDay: Int, lastDay: Int) {
        var rng = SplitMix64(seed: seed, stream: 0xC11E, index)
        self.index = index
        relationship = SyntheticID(.relationship, seed: seed, index)
        user = SyntheticID(.clientUser, seed: seed, index)
        coach = SyntheticID(.coachUser, seed: seed, index / 30)
        workspace = SyntheticID(.workspace, seed: seed, index / 300)
        var name = CSVRowBuffer(capacity: 16)
        name.append("ios-")
        name.hex(SyntheticID(.device, seed: seed, index).low, digits: 6)
        deviceName = name.bytes

        let days = lastDay - firstDay + 1
        zone = ZoneOffsetTable.zone(forRoll: rng.below(100))
        if rng.chance(0.03) && days > 20 {
            movedZone = (zone + 1 + rng.below(ZoneOffsetTable.zones.count - 1)) % ZoneOffsetTable.zones.count
            moveDay = firstDay + days / 4 + rng.below(days / 2)
        } else {
            movedZone = zone
            moveDay = Int.max
        }
        hasTimezoneRow = !rng.chance(0.02)

        // Coaching programs run for two months to a year: clients join all
        // through (and before) the window, and many have left by its end.
        let length = 60 + rng.below(340)
        let earliestStart = firstDay - length + 14
        startedOn = earliestStart + rng.below(max(1, lastDay - 7 - earliestStart))
        let endDay = startedOn + length
        if endDay < lastDay - 3 && rng.chance(0.9) {
            status = SyntheticVocabulary.ended
            endedOn = endDay
            // Materialization ran two days past the end: rows the pipeline must ignore.
            lastTaskDay = min(lastDay, endDay + 2)
        } else if endDay < lastDay - 3 {
            status = SyntheticVocabulary.paused
            endedOn = nil
            lastTaskDay = endDay
        } else {
            status = SyntheticVocabulary.active
            endedOn = nil
            lastTaskDay = lastDay
        }
        firstTaskDay = max(startedOn, firstDay)

        var mask = 0
        for weekday in 0..<7 where rng.chance(0.5) { mask |= 1 << weekday }
        workoutDays = mask == 0 ? 0b0101010 : mask
        workoutMinute = rng.chance(0.5) ? 420 + rng.below(60) : 1050 + rng.below(90)
        mealSlots = rng.chance(0.5) ? [0, 1, 2] : (rng.chance(0.5) ? [1, 2] : [0, 2])
        checkInDays = rng.chance(0.6) ? 0b1111111 : 0b0101010
        hasWaterHabit = rng.chance(0.8)
        hasSupplement = rng.chance(0.2)
        weighInDays = rng.chance(0.3) ? 1 << rng.below(7) : 0
        reminderDays = rng.chance(0.5) ? 0b0010010 : 0
        breathworkDays = rng.chance(0.02) ? 0b0000100 : 0

        adherence = 0.35 + rng.unit() * 0.6
        skipRate = 0.03 + rng.unit() * 0.07

        journals = rng.chance(0.6)
        journalEntriesPerDay = 1 + rng.below(4)
        health = rng.chance(0.35)
        hasWatch = rng.chance(0.6)
        logsWater = rng.chance(0.5)
        weighsIn = rng.chance(0.4)
        let zoneName = ZoneOffsetTable.zones[zone].name
        usesPounds = zoneName.hasPrefix("America/") && rng.chance(0.7)
        tracksNutritionInHealth = rng.chance(0.2)
        writesBackToHealth = rng.chance(0.1)
        prefersHealth = health && rng.chance(0.5)
        startMassGrams = 55_000 + rng.below(50_000)
    }

    /// The client's zone on local day `day`.
    func zone(onDay day: Int) -> Int { day >= moveDay ? movedZone : zone }

    func hasTasks(onDay day: Int) -> Bool { day >= firstTaskDay && day <= lastTaskDay }

    /// Journal and Health data start a little before the relationship (an
    /// app user first) and fade out a month after it ends.
    func hasPersonalData(onDay day: Int, firstDay: Int) -> Bool {
        day >= max(firstDay, startedOn - 14) && day <= lastTaskDay + 30
    }
}

/// What a client carries from one day to the next.
struct SyntheticClientState: Sendable {
    /// Days left in a quiet spell (no activity at all).
    var quietDaysLeft = 0
    var massGrams: Int
}
