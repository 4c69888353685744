import Foundation

/// What a shard drop (`dayfold shard`, SPEC §13) says about itself and the
/// drop it came from, in `dayfold-shard.json` at its root: a run of the
/// shard computes only its own users' outputs, and `dayfold merge` rebuilds
/// the whole drop's manifest (its files in reading order, their SHA-256,
/// the unread files) from it without the drop at hand.
public struct ShardMarker: Codable, Sendable, Equatable {
    public static let fileName = "dayfold-shard.json"
    public static let format = 1

    public var format: Int
    public var toolVersion: String
    public var shard: Int
    public var shards: Int
    /// The users whose outputs are this shard's (sorted).
    public var ownedUsers: [String]
    /// A shard file (a spill's `.zst` name) → the drop's file.
    public var originalPaths: [String: String]
    /// Files copied whole into every shard (accounted by shard 0 only).
    public var sharedFiles: [String]
    /// The drop's files in reading order, and their SHA-256.
    public var readingOrder: [String]
    public var digests: [String: String]
    public var hasPush: Bool
    public var unrecognizedFiles: [DropLayout.UnrecognizedFile]
    /// Set for a split the export itself made (`dayfold run --presplit K/N`):
    /// the drop is this split alone, its users all its own, its files named
    /// in the merged manifest under the split folder's name; nil for a
    /// shard of `dayfold shard`.
    public var presplitFolder: String?

    /// The marker of the shard drop at `folder`, nil when it is an ordinary drop.
    static func read(drop folder: String) throws -> ShardMarker? {
        let path = (folder as NSString).appendingPathComponent(fileName)
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        guard let data = FileManager.default.contents(atPath: path),
            let marker = try? JSONDecoder().decode(ShardMarker.self, from: data)
        else {
            throw DayfoldError(
                .input, "\(path): not a shard marker dayfold can read",
                fix: "shard the drop again with this dayfold (dayfold shard DROP --shards N --out DIR)")
        }
        guard marker.format == format, marker.toolVersion == Manifest.toolVersion else {
            throw DayfoldError(
                .usage,
                "\(path): written by dayfold \(marker.toolVersion) (format \(marker.format)); this is "
                    + "\(Manifest.toolVersion)",
                fix: "shard the drop with the dayfold that runs the shards")
        }
        return marker
    }

    func encoded() throws -> Data { try sortedKeysJSON(self) }

    /// The marker of a split made by the export (SPEC §13's "already split
    /// by user"): nothing shared or renamed; the split's own reading order;
    /// its digests are the run's own.
    static func presplit(shard: Int, of shards: Int, folder: String, layout: DropLayout) -> ShardMarker {
        ShardMarker(
            format: format, toolVersion: Manifest.toolVersion, shard: shard, shards: shards, ownedUsers: [],
            originalPaths: [:], sharedFiles: [], readingOrder: layout.readingOrder.map(\.relativePath), digests: [:],
            hasPush: layout.hasPushFolder, unrecognizedFiles: layout.unrecognizedFiles,
            presplitFolder: (folder as NSString).lastPathComponent)
    }
}

/// What a run of a shard publishes beside its parts (`parts/shard.json`):
/// the marker and the run's pipeline and as-of, which `dayfold merge`
/// checks are the same for every part.
struct ShardRunFacts: Codable, Sendable, Equatable {
    static let fileName = "shard.json"

    var marker: ShardMarker
    var pipeline: String
    var configDigest: String
    var asOfMicros: Int64
    var asOfOffsetSeconds: Int32
    /// The pipeline's `max_reject_fraction`: a shard's own share of rejects
    /// says nothing, the merge judges the whole drop's.
    var maxRejectFraction: Double
    /// The shard was run with the pipeline key `html` or `--html`: its merge
    /// publishes the HTML report (nil, left out of the file, when not).
    var html: Bool?
}
