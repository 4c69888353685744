import Foundation

/// The SHA-256 of everything one partition's outputs are a function of: the
/// tool and its state format, the pipeline's digest, the time-zone database,
/// the as-of, the partition's place among how many, the users it owns, and
/// the CSV text of each of its spill files and the digest of each input
/// linked whole into it. Two partitions with one key have the same
/// contribution and parts, so a stored one stands in for computing it.
enum PartitionKey {
    struct Inputs {
        var index: Int
        var count: Int
        var configDigest: String
        var asOf: ParsedInstant
        /// The users the partition owns (any order: they are sorted here).
        var ownedUsers: [String]
        /// Spill file (relative path) → SHA-256 of its CSV text.
        var spills: [String: String]
        /// Linked input (relative path) → SHA-256 of the file.
        var linked: [String: String]
    }

    static func of(_ inputs: Inputs) -> String {
        var text = "dayfold partition\n"
        text += "format \(RunState.format)\ntool \(Manifest.toolVersion)\nzones \(RunState.timeZoneDataVersion)\n"
        text += "config \(inputs.configDigest)\n"
        text += "as_of \(inputs.asOf.instant.micros) \(inputs.asOf.offsetSeconds)\n"
        text += "partition \(inputs.index) of \(inputs.count)\n"
        for user in inputs.ownedUsers.sorted(by: bytesLess) { text += "user \(user.utf8.count) \(user)\n" }
        for path in inputs.spills.keys.sorted(by: bytesLess) {
            text += "spill \(path.utf8.count) \(path) \(inputs.spills[path] ?? "")\n"
        }
        for path in inputs.linked.keys.sorted(by: bytesLess) {
            text += "linked \(path.utf8.count) \(path) \(inputs.linked[path] ?? "")\n"
        }
        return SHA256Hasher.hex(text)
    }

    /// Whether `text` has a key's form (64 lowercase hex digits).
    static func isKey(_ text: String) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
}
