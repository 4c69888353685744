import DayfoldCore

/// Writes `journal/`: a client's meal journal for one local day, and the
/// later edits (new revisions: portion changes, moves to another day,
/// deletions) into a separate file that sorts after the main parts.
struct JournalDayWriter {
    static let header = JournalColumn.header

    private var entries: DropPartWriter
    private var edits: DropPartWriter
    private let context: SyntheticDropContext

    init(root: String, zstd: Bool, maxPartBytes: Int64, context: SyntheticDropContext) throws {
        self.context = context
        entries = try DropPartWriter(
            root: root, folder: "journal", baseName: "journal", header: Self.header, zstd: zstd,
            maxPartBytes: maxPartBytes)
        edits = try DropPartWriter(
            root: root, folder: "journal", baseName: "journal", label: "edits", header: Self.header, zstd: zstd,
            maxPartBytes: maxPartBytes, keepsEmpty: false)
    }

    mutating func finish() throws -> [DropPartWriter.Part] {
        let main = try entries.finish(firstNumber: 0)
        return try main + edits.finish(firstNumber: main.count)
    }

    private struct Entry {
        var id: SyntheticID
        var revision: Int
        var cookedAt: SyntheticInstant
        var style: InstantStyle
        var portion: Int
        var recipe: Int
        var deleted: [UInt8]
        var dropsEnergy: Bool
    }

    mutating func write(client: SyntheticClient, day: Int, zone: Int, rng: inout SplitMix64) throws {
        let count = rng.below(client.journalEntriesPerDay + 2)
        let portions = SyntheticVocabulary.portions
        for entryIndex in 0..<count {
            let minute = [450, 760, 1150, 960][entryIndex % 4] + rng.int(in: -20...40) + 10 * (entryIndex / 4)
            let styleRoll = rng.below(100)
            var entry = Entry(
                id: SyntheticID(.journalEntry, seed: context.seed, client.index, day, entryIndex), revision: 1,
                cookedAt: context.zones.instant(zone: zone, day: day, minuteOfDay: minute),
                style: styleRoll < 60 ? .isoOffset : styleRoll < 80 ? .postgresUTC : .isoUTC,
                portion: rng.below(portions.count), recipe: rng.below(SyntheticVocabulary.recipes.count),
                deleted: SyntheticVocabulary.notDeleted[rng.below(SyntheticVocabulary.notDeleted.count)],
                dropsEnergy: rng.chance(0.05))
            if rng.chance(0.002) { entry.style = .missingOffset }
            guard context.isExported(entry.cookedAt) else { continue }
            try Self.append(entry, client, seed: context.seed, to: &entries)
            guard rng.chance(0.035) else { continue }
            // Edited later: a new revision in the edits file.
            entry.revision = 2
            let editRoll = rng.below(100)
            if editRoll < 50 {
                entry.portion = (entry.portion + 1 + rng.below(portions.count - 1)) % portions.count
            } else if editRoll < 70 {
                let shifted = context.zones.instant(
                    zone: zone, day: day, minuteOfDay: minute + (rng.chance(0.5) ? 1440 : -1440))
                entry.cookedAt = shifted
            } else {
                entry.deleted = SyntheticVocabulary.deleted[rng.below(SyntheticVocabulary.deleted.count)]
            }
            guard context.isExported(entry.cookedAt) else { continue }
            try Self.append(entry, client, seed: context.seed, to: &edits)
            if editRoll < 50 && rng.chance(0.1) {
                entry.revision = 3
                entry.portion = (entry.portion + 1) % portions.count
                try Self.append(entry, client, seed: context.seed, to: &edits)
            }
        }
    }

    /// Static, so that writing into one of `self`'s writers never copies `self` (and its buffers).
    private static func append(_ entry: Entry, _ client: SyntheticClient, seed: UInt64, to writer: inout DropPartWriter)
        throws
    {
        let recipe = SyntheticVocabulary.recipes[entry.recipe]
        writer.row.put(entry.id)
        writer.row.put(client.user)
        writer.row.put(entry.cookedAt, entry.style)
        writer.row.putInteger(entry.revision)
        writer.row.put(SyntheticVocabulary.portions[entry.portion].text)
        func nutrient(_ tenths: Int) {
            if tenths >= 0 { writer.row.fixed(tenths, decimals: 1) }
            writer.row.comma()
        }
        nutrient(entry.dropsEnergy ? -1 : recipe.energy)
        nutrient(recipe.protein)
        nutrient(recipe.carbs)
        nutrient(recipe.fat)
        writer.row.put(entry.deleted)
        writer.row.put(SyntheticID(.recipe, seed: seed, entry.recipe))
        writer.row.append(recipe.title)
        try writer.endRow()
    }
}
