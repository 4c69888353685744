import Foundation

/// A run of a shard drop (SPEC §13): an ordinary `dayfold run` whose drop
/// holds `dayfold-shard.json`. It computes the shard's users as a
/// partitioned run computes a partition and publishes what `dayfold merge`
/// needs to build the whole drop's outputs: `parts/<table>.csv` (sorted
/// table parts), `parts/contribution.json` (accounts, rejects, warnings,
/// push counts), `parts/shard.json` (the marker, pipeline and as-of) and a
/// manifest of the shard's own accounting.
extension PipelineRunner {
    func runShard(_ marker: ShardMarker, target: OutputTarget) throws -> Outcome {
        let started = Date()
        let publisher = try OutputPublisher(target: target)
        let contribution: PartitionContribution
        var publishWarnings: [String] = []
        do {
            let parts = publisher.path("parts")
            contribution = try computePartition(
                input, owned: marker.presplitFolder == nil ? Set(marker.ownedUsers) : nil, into: parts,
                removeWhenRead: false)
            try contribution.encoded().write(to: URL(fileURLWithPath: parts + "/contribution.json"))
            let facts = ShardRunFacts(
                marker: marker, pipeline: config.name, configDigest: config.digest, asOfMicros: asOf.instant.micros,
                asOfOffsetSeconds: asOf.offsetSeconds, maxRejectFraction: config.maxRejectFraction,
                html: html ? true : nil)
            try sortedKeysJSON(facts).write(to: URL(fileURLWithPath: parts + "/" + ShardRunFacts.fileName))
            var accounts: [FileAccount] = []
            for var account in contribution.accounts
            where marker.shard == 0 || !marker.sharedFiles.contains(account.path) {
                account.path = marker.originalPaths[account.path] ?? account.path
                account.sha256 = marker.digests[account.path] ?? account.sha256
                accounts.append(account)
            }
            var manifest = Manifest(
                pipelineName: config.name, configDigest: config.digest, asOf: asOf.instant, inputs: accounts,
                outputs: contribution.partRows.keys.sorted(by: bytesLess).map { table in
                    ("parts/\(table).csv", contribution.partRows[table] ?? 0, contribution.partDigests[table] ?? "")
                }, warnings: contribution.zoneWarnings + contribution.healthFolderWarnings,
                failedImports: contribution.failedImports, timings: [("shard run", Date().timeIntervalSince(started))])
            manifest.hasPushFolder = marker.hasPush
            manifest.shard = (marker.shard, marker.shards)
            try Data(manifest.json().utf8).write(to: URL(fileURLWithPath: publisher.path("manifest.json")))
            publishWarnings = try publisher.publish()
        } catch {
            throw PipelineRunner.writeFailure(error, publisher)
        }
        let read = contribution.accounts.reduce(0) { $0 + $1.rowsRead }
        let rejected = contribution.accounts.reduce(0) { $0 + $1.rejected }
        // A shard's own share of rejects is not the drop's: `dayfold merge` judges that.
        var outcome = Outcome(
            rowsRead: read, rowsRejected: rejected, rejectFractionExceeded: false,
            outputDirectory: publisher.destination)
        outcome.warnings = contribution.zoneWarnings + publishWarnings
        outcome.failedImports = contribution.failedImports
        return outcome
    }
}
