import Foundation

/// What one partition of a partitioned run adds to the merge besides its
/// sorted table parts: its files' accounts, its rejects and warnings, its
/// push summary rows and its tables' columns.
///
/// One value for a partition computed now and for one read back from the
/// state (`PartitionStore`): the merge cannot tell them apart, which is
/// what makes an incremental run's outputs a full run's. Codable is
/// synthesized from the stored properties, so a field added here is kept
/// in the state without a line of encoding to forget.
struct PartitionContribution: Sendable, Codable {
    /// JSON with sorted keys: the same value is the same bytes in the state
    /// and in a shard's output.
    func encoded() throws -> Data { try sortedKeysJSON(self) }

    /// Accounts of the partition's files, under their paths in the partition
    /// (a spill file's `.zst` name; `PartitionRouter.originalPaths` maps them back).
    var accounts: [FileAccount]
    var rejects: [RejectedRecord]
    /// Zone warnings of the users the partition owns, sorted.
    var zoneWarnings: [String]
    var invalidSchemaRows: Int
    var healthFolderWarnings: [String]
    var failedImports: [String]
    var pushHealth: [PushHealthRow]
    var pushIntents: [PushIntentSummaryRow]
    /// Each written table's columns, by table name (the merge's schema).
    var fields: [String: [ParquetField]]
    /// Each part file's size in bytes, by table name: a part of another
    /// size in the state is a partial one, not used.
    var partSizes: [String: Int64]
    /// Each part's data rows and SHA-256, by table name (a shard output's manifest).
    var partRows: [String: Int]
    var partDigests: [String: String]
    /// The client users the partition owns (the manifest's `recomputed_users`).
    var userCount: Int
}

/// `value` as JSON with its keys sorted (stable bytes for dayfold's own files).
func sortedKeysJSON(_ value: some Encodable) throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return try encoder.encode(value)
}
