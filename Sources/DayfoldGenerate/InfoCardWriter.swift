import DayfoldCore

/// Writes `tasks/info_cards` (`today_informational_cards`): a coach's card
/// on some days, counted but never scored; a few are materialized twice.
struct InfoCardWriter {
    /// The declared columns in the platform's export order, with the ones
    /// dayfold does not read (workspace, zone, priority, snapshot).
    static let header = [
        InfoCardColumn.id.name, "workspace_id", InfoCardColumn.relationshipID.name, InfoCardColumn.localDate.name,
        "timezone", InfoCardColumn.cardKey.name, "priority", "snapshot",
    ].joined(separator: ",")

    private var writer: DropPartWriter
    private let context: SyntheticDropContext

    init(root: String, zstd: Bool, maxPartBytes: Int64, context: SyntheticDropContext) throws {
        self.context = context
        writer = try DropPartWriter(
            root: root, folder: "tasks/info_cards", baseName: "cards", header: Self.header, zstd: zstd,
            maxPartBytes: maxPartBytes)
    }

    mutating func finish() throws -> [DropPartWriter.Part] { try writer.finish(firstNumber: 0) }

    mutating func write(client: SyntheticClient, day: Int, zone: Int, rng: inout SplitMix64) throws {
        guard rng.chance(0.12) else { return }
        let card = rng.below(SyntheticVocabulary.cardSnapshots.count)
        try append(SyntheticID(.infoCard, seed: context.seed, client.index, day), client, day, zone, card)
        if rng.chance(0.005) {
            // Same (relationship, day, card_key) under a second id: the later row wins.
            try append(SyntheticID(.infoCard, seed: context.seed, client.index, day, 1), client, day, zone, card)
        }
    }

    private mutating func append(_ id: SyntheticID, _ client: SyntheticClient, _ day: Int, _ zone: Int, _ card: Int)
        throws
    {
        writer.row.put(id)
        writer.row.put(client.workspace)
        writer.row.put(client.relationship)
        writer.row.putDate(day)
        writer.row.put(context.zones.names[zone])
        writer.row.append(SyntheticVocabulary.cardKeyPrefix)
        writer.row.hex(SyntheticID(.infoCard, seed: context.seed, client.index, -1, card).high, digits: 8)
        writer.row.comma()
        writer.row.putInteger(0)
        writer.row.append(SyntheticVocabulary.cardSnapshots[card])
        try writer.endRow()
    }
}
