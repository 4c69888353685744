import Foundation

/// Splits a drop into partition drops so each can be processed within a
/// memory budget (SPEC §8 `max_memory`), with outputs identical to one run.
///
/// Rows are grouped by client user: a relationship's tasks, events, value
/// entries, cards and logs go with its client; journal and health rows with
/// their user. Ids that appear under two users (an instance id re-exported
/// under another relationship, an event id reused…) join the two users'
/// groups, so every decision that spans rows sees all of them. Each group goes
/// to one partition. A partition is a drop folder with the original relative
/// paths: spill files hold `__line,<original record text>` so accounting,
/// line numbers and `raw` are the original's; subjects are shared whole.
/// See Documentation/Partitioning.md.
public final class PartitionRouter {
    static let lineColumn = "__line"
    /// The `source_context` of a task reminder (SPEC §11.2).
    static let dailyExecution = Array("DAILY_EXECUTION".utf8)

    let layout: DropLayout
    let options: IngestOptions
    let partitions: Int
    let root: String

    /// Nodes are client users (and users seen only in journal or health).
    private var nodeOfUser: [String: Int32] = [:]
    private var users: [String] = []
    private var parent: [Int32] = []
    /// Input bytes per node (for balancing), and the partition of each group root once assigned.
    private var bytesOfNode: [Int64] = []
    private var partitionOfRoot: [Int32: Int] = [:]
    private var relationshipNode: [Int32] = []
    private let ingestor: DropIngestor
    /// Push installation id → its user's node (installations are shared whole;
    /// a delivery goes with the user of the installation it was sent to).
    private var installationUser = FingerprintMap()
    /// Push delivery id → its owner's node, from the union pass (a receipt
    /// names only its delivery and goes with it).
    private var deliveryOwner = FingerprintMap()

    /// Whether a drop can be partitioned (a SQLite journal cannot be routed row by row).
    public static func canPartition(_ layout: DropLayout) -> Bool {
        whyNotPartitioned(layout) == nil
    }

    /// Why `max_memory` cannot be applied to a drop (nil when it can).
    public static func whyNotPartitioned(_ layout: DropLayout) -> String? {
        if layout.journal.contains(where: { $0.relativePath.hasSuffix(".sqlite") }) {
            return "a SQLite journal cannot be partitioned"
        }
        return nil
    }

    /// Files every partition reads whole: the subjects and the push
    /// installations (small, and named by deliveries of any user). Their
    /// accounts and rejects are taken from one partition.
    static func sharedFiles(_ layout: DropLayout) -> [DropLayout.File] {
        [layout.relationships, layout.timezones, layout.goals, layout.preferences, layout.notificationPreferences]
            .compactMap { $0 } + layout.pushInstallations
    }

    /// Groups go to partitions by `StableAssignment` (the same group lands in
    /// the same partition whatever else the drop holds: an incremental run
    /// finds its unchanged partitions again) instead of by size.
    let stableAssignment: Bool

    /// Per partition: the SHA-256 of each spill file's CSV text (by the spill's
    /// relative path; with `hashSpills`) and the relative paths of the input
    /// files linked whole into it: what `PartitionKey` is made of.
    private(set) var spillDigests: [[String: String]]
    private(set) var linkedFiles: [[String]]

    /// Files read whole are copied into each partition instead of linked:
    /// a shard (SPEC §13) is a drop of its own, moved to another machine.
    let copyShared: Bool

    /// Whether `spillDigests` is kept (for `PartitionKey`).
    let hashSpills: Bool

    /// Per partition: data rows written to each spill file (by relative
    /// path): the shard step's accounting.
    private(set) var spillRows: [[String: Int]]

    init(
        layout: DropLayout, options: IngestOptions, partitions: Int, root: String, stableAssignment: Bool = false,
        copyShared: Bool = false, hashSpills: Bool = false
    ) throws {
        self.copyShared = copyShared
        self.hashSpills = hashSpills
        spillRows = Array(repeating: [:], count: partitions)
        self.layout = layout
        self.options = options
        self.partitions = partitions
        self.root = root
        self.stableAssignment = stableAssignment
        spillDigests = Array(repeating: [:], count: partitions)
        linkedFiles = Array(repeating: [], count: partitions)
        ingestor = DropIngestor(layout: layout, options: options)
        try ingestor.readRelationships()
        for relationship in ingestor.drop.relationships {
            relationshipNode.append(node(relationship.clientUserID))
        }
    }

    private func node(_ user: String) -> Int32 {
        if let known = nodeOfUser[user] { return known }
        let id = Int32(users.count)
        nodeOfUser[user] = id
        users.append(user)
        parent.append(id)
        bytesOfNode.append(0)
        return id
    }

    private func find(_ node: Int32) -> Int32 {
        var current = node
        while parent[Int(current)] != current {
            parent[Int(current)] = parent[Int(parent[Int(current)])]
            current = parent[Int(current)]
        }
        return current
    }

    private func union(_ left: Int32, _ right: Int32) {
        let a = find(left)
        let b = find(right)
        if a != b { parent[Int(max(a, b))] = min(a, b) }
    }

    private func relationshipNode(_ id: ArraySlice<UInt8>?) -> Int32? {
        ingestor.relationship(id).map { relationshipNode[$0] }
    }

    /// The group of a relationship id; one not in relationships.csv gets a
    /// group of its own, so rows naming it still meet the task they name.
    private func relationshipGroup(_ id: ArraySlice<UInt8>?) -> Int32? {
        guard let id else { return nil }
        if let known = relationshipNode(id) { return known }
        return node("\u{1}relationship:" + String(decoding: id, as: UTF8.self))
    }

    /// The group a row belongs to (nil: any partition decides it the same way; it goes to 0).
    private func owner(kind: Kind, _ fields: [ArraySlice<UInt8>?]) -> Int32? {
        switch kind {
        case .instances, .workoutLogs, .infoCards: return relationshipGroup(fields[1])
        case .statusEvents, .valueEntries: return relationshipGroup(fields[2])
        case .journal, .health: return fields[1].map { node(String(decoding: $0, as: UTF8.self)) }
        case .pushIntents: return fields[1].map { node(String(decoding: $0, as: UTF8.self)) }
        case .pushDeliveries:
            if let installation = fields[2], let user = installationUser[PartitionRouter.idKey(11, installation)] {
                return user
            }
            // An unknown installation: a group of its own, joined with its intent's.
            return fields[0].map { node("\u{1}delivery:" + String(decoding: $0, as: UTF8.self)) }
        case .pushReceipts: return fields[1].flatMap { deliveryOwner[PartitionRouter.idKey(9, $0)] }
        }
    }

    /// An id in its key space (task ids are shared by instances, logs and the rows naming them).
    private static func idKey(_ space: UInt8, _ id: ArraySlice<UInt8>) -> UInt64 {
        var print = Fingerprint()
        print.combine(UInt64(space))
        print.combine(id)
        return print.value
    }

    /// The ids a row claims for its group: rows sharing an id must be processed together.
    private func claims(kind: Kind, _ fields: [ArraySlice<UInt8>?]) -> [UInt64] {
        switch kind {
        case .instances, .workoutLogs: return fields[0].map { [PartitionRouter.idKey(1, $0)] } ?? []
        case .statusEvents, .valueEntries:
            let own = fields[0].map { PartitionRouter.idKey(kind == .statusEvents ? 2 : 3, $0) }
            let task = fields[1].map { PartitionRouter.idKey(1, $0) }
            return [own, task].compactMap { $0 }
        case .infoCards: return fields[0].map { [PartitionRouter.idKey(4, $0)] } ?? []
        case .journal: return fields[0].map { [PartitionRouter.idKey(5, $0)] } ?? []
        case .health: return []
        // An intent: its id, its idempotency key and, for a task reminder,
        // the task (whose client may be another user than the recipient).
        // Other contexts' record ids are no task's: a broadcast naming one
        // record for many users must not join their groups.
        case .pushIntents:
            let reminds = fields[4].map { $0.elementsEqual(PartitionRouter.dailyExecution) } ?? false
            return [(7, fields[0]), (8, fields[2]), (1, reminds ? fields[3] : nil)].compactMap { space, id in
                id.map { PartitionRouter.idKey(UInt8(space), $0) }
            }
        // A delivery: its id, and its intent's (the recipient check and the
        // idempotency merge need both in one partition).
        case .pushDeliveries:
            return [(9, fields[0]), (7, fields[1])].compactMap { space, id in
                id.map { PartitionRouter.idKey(UInt8(space), $0) }
            }
        case .pushReceipts: return fields[0].map { [PartitionRouter.idKey(10, $0)] } ?? []
        }
    }

    enum Kind {
        case instances, workoutLogs, statusEvents, valueEntries, infoCards, journal, health
        case pushIntents, pushDeliveries, pushReceipts

        /// The columns routing looks at, from the kinds' declarations: an id
        /// and what it belongs to.
        var columns: [String] {
            switch self {
            case .instances: return [InstanceColumn.id.name, InstanceColumn.relationshipID.name]
            case .workoutLogs: return [WorkoutLogColumn.id.name, WorkoutLogColumn.relationshipID.name]
            case .infoCards: return [InfoCardColumn.id.name, InfoCardColumn.relationshipID.name]
            case .statusEvents:
                return [StatusEventColumn.id, .dailyTaskInstanceID, .relationshipID].map(\.name)
            case .valueEntries:
                return [ValueEntryColumn.id, .dailyTaskInstanceID, .relationshipID].map(\.name)
            case .journal: return [JournalColumn.entryID.name, JournalColumn.userID.name]
            case .health: return [HealthColumn.type.name, HealthColumn.userID.name]
            case .pushIntents:
                return [PushIntentColumn.id, .recipientUserID, .idempotencyKey, .sourceRecordID, .sourceContext].map(
                    \.name)
            case .pushDeliveries: return [PushDeliveryColumn.id, .intentID, .installationID].map(\.name)
            case .pushReceipts: return [PushReceiptColumn.id, .deliveryID].map(\.name)
            }
        }
    }

    private var kinds: [(Kind, [DropLayout.File])] {
        [
            (.instances, layout.instances), (.workoutLogs, layout.workoutLogs), (.statusEvents, layout.statusEvents),
            (.valueEntries, layout.valueEntries), (.infoCards, layout.infoCards), (.journal, layout.journal),
            (.health, layout.healthCSV),
            // Deliveries before receipts: a receipt's owner is its delivery's.
            (.pushIntents, layout.pushIntents), (.pushDeliveries, layout.pushDeliveries),
            (.pushReceipts, layout.pushReceipts),
        ]
    }

    /// The input file each spill file (by relative path) was routed from:
    /// partitions account for spill files, the manifest for the inputs.
    private(set) var originalPaths: [String: String] = [:]

    /// A spill file's relative path: the input's, with `.zst` added. Spill is
    /// always compressed (zstd −3, a quarter of the bytes for about 0.2 s on
    /// a 1 GB drop): written plain, a spill larger than what the kernel keeps
    /// as dirty pages was throttled to the disk's pace, so a drop twice as
    /// large took more than twice as long to route.
    /// A `.csv.gz` input's spill is `.csv.gz.zst` (zstd, plain CSV inside),
    /// a name the partition's layout reads (`DropLayout.Options.isPartition`)
    /// and that sorts among its neighbours as the original does.
    private func spillName(_ relativePath: String) -> String {
        relativePath.hasSuffix(".zst") ? relativePath : relativePath + ".zst"
    }

    /// The SHA-256 of each file the union pass read (by relative path), taken
    /// as it was read: the manifest needs no second reading of those files.
    private(set) var digests: [String: String] = [:]

    /// Union pass, then route pass. Returns the partition folders.
    func run() throws -> [String] {
        // Union pass: every id a row claims goes to a bucket file with the row's
        // group; then each bucket alone is in memory, joining the groups that
        // share an id. Memory stays flat however many ids the drop has.
        let inputBytes = layout.allFiles.reduce(Int64(0)) { $0 + layout.size(of: $1.relativePath) }
        let buckets = try IDPairBuckets(
            folder: root + "/ids", count: Int(min(512, max(1, inputBytes / (150 << 20)))))
        for file in layout.pushInstallations {
            try scan(file, [PushInstallationColumn.id.name, PushInstallationColumn.userID.name]) { fields, _ in
                guard let id = fields[0], let user = fields[1] else { return }
                let key = PartitionRouter.idKey(11, id)
                let owner = self.node(String(decoding: user, as: UTF8.self))
                // Re-exported under another user: whichever row wins, both users meet.
                if let earlier = self.installationUser[key] { self.union(earlier, owner) }
                self.installationUser[key] = owner
            }
        }
        for (kind, files) in kinds {
            for file in files {
                let digest = StreamDigest()
                try scan(file, kind.columns, digest: digest) { fields, record in
                    guard let owner = self.owner(kind: kind, fields) else { return }
                    self.bytesOfNode[Int(owner)] += Int64(record.rawRange.count)
                    if kind == .pushDeliveries, let id = fields[0] {
                        self.deliveryOwner[PartitionRouter.idKey(9, id)] = owner
                    }
                    for key in self.claims(kind: kind, fields) { try buckets.add(key, owner) }
                }
                digests[file.relativePath] = digest.hex()
            }
        }
        debugRSS("route: union pass read")
        try buckets.forEachBucket { pairs in
            var first = FingerprintMap()
            for (key, owner) in pairs {
                if let earlier = first[key] { union(earlier, owner) } else { first[key] = owner }
            }
        }
        buckets.remove()
        debugRSS("route: groups joined")
        for (user, file) in layout.healthXML { bytesOfNode[Int(node(user))] += layout.size(of: file.relativePath) }
        assignPartitions()
        let folders = (0..<partitions).map { root + "/p\($0)" }
        for (index, folder) in folders.enumerated() {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            for file in PartitionRouter.sharedFiles(layout) { try link(file, into: folder, partition: index) }
            // Every partition of a drop with push/ writes the push tables.
            if layout.hasPushFolder {
                try FileManager.default.createDirectory(
                    atPath: folder + "/push", withIntermediateDirectories: true)
            }
        }
        for (user, file) in layout.healthXML {
            let target = partition(of: node(user))
            try link(file, into: folders[target], partition: target)
        }
        // An unzipped export's other files go with it: its account counts them.
        for (folder, files) in layout.healthExportParts {
            let user = folder.split(separator: "/").dropFirst().first.map(String.init) ?? ""
            guard let owner = nodeOfUser[user] else { continue }
            let target = partition(of: owner)
            for file in files { try link(file, into: folders[target], partition: target) }
        }
        for (kind, files) in kinds {
            for file in files {
                var writers: [Int: SpillWriter] = [:]
                var headerText: [UInt8] = []
                let spillPath = spillName(file.relativePath)
                originalPaths[spillPath] = file.relativePath
                func writer(_ partition: Int) throws -> SpillWriter {
                    if let known = writers[partition] { return known }
                    let created = try SpillWriter(
                        path: folders[partition] + "/" + spillPath, header: headerText, hashing: hashSpills)
                    writers[partition] = created
                    return created
                }
                try scan(file, kind.columns) { fields, record in
                    let owner = self.owner(kind: kind, fields)
                    try writer(owner.map { self.partition(of: $0) } ?? 0).append(
                        line: record.line, raw: record.rawBytes)
                } header: { record in
                    headerText = Array(record.rawBytes)
                }
                _ = try writer(0)  // every input file has an account, even when all its rows went elsewhere
                for (partition, spill) in writers {
                    try spill.close()
                    if hashSpills { spillDigests[partition][spillPath] = spill.digest() }
                    spillRows[partition][spillPath] = spill.rows
                }
            }
        }
        // Routing is done: the per-delivery map (as large as the deliveries)
        // must not stay alive through the partitions' runs.
        deliveryOwner = FingerprintMap()
        installationUser = FingerprintMap()
        return folders
    }

    /// The users each partition owns (its outputs are theirs).
    func ownedUsers() -> [Set<String>] {
        var owned = [Set<String>](repeating: [], count: partitions)
        for (index, user) in users.enumerated() { owned[partition(of: Int32(index))].insert(user) }
        return owned
    }

    /// Groups go to partitions largest first, each to the least loaded one,
    /// so no partition is much bigger than the drop / K (deterministic: ties
    /// by the group's first user id).
    private func assignPartitions() {
        if stableAssignment {
            // Each group by the smallest of its user ids (bytes), so a
            // group's partition follows from its members alone.
            var smallest: [Int32: String] = [:]
            for (index, user) in users.enumerated() {
                let root = find(Int32(index))
                if let known = smallest[root], !bytesLess(user, known) { continue }
                smallest[root] = user
            }
            for (root, user) in smallest {
                partitionOfRoot[root] = StableAssignment.partition(of: user, among: partitions)
            }
            return
        }
        var size: [Int32: Int64] = [:]
        for index in users.indices {
            size[find(Int32(index)), default: 0] += bytesOfNode[index]
        }
        let order = size.keys.sorted {
            size[$0] != size[$1] ? (size[$0] ?? 0) > (size[$1] ?? 0) : bytesLess(users[Int($0)], users[Int($1)])
        }
        var load = [Int64](repeating: 0, count: partitions)
        for root in order {
            var target = 0
            for index in load.indices where load[index] < load[target] { target = index }
            partitionOfRoot[root] = target
            load[target] += size[root] ?? 0
        }
    }

    private func partition(of node: Int32) -> Int { partitionOfRoot[find(node)] ?? 0 }

    private func link(_ file: DropLayout.File, into folder: String, partition: Int) throws {
        linkedFiles[partition].append(file.relativePath)
        let target = folder + "/" + file.relativePath
        try FileManager.default.createDirectory(
            atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        if copyShared {
            try FileManager.default.copyItem(atPath: file.absolutePath, toPath: target)
        } else {
            try FileManager.default.createSymbolicLink(atPath: target, withDestinationPath: file.absolutePath)
        }
    }

    /// Reads `columns` of every record of a CSV file (header excluded).
    private func scan(
        _ file: DropLayout.File, _ columns: [String], digest: StreamDigest? = nil,
        _ body: (_ fields: [ArraySlice<UInt8>?], _ record: CSVRecord) throws -> Void,
        header: (CSVRecord) -> Void = { _ in }
    ) throws {
        let stream: ByteStream
        do {
            stream = try openByteStream(path: file.absolutePath, digest: digest)
        } catch let error as ByteStreamError {
            throw DayfoldError(.input, "\(file.relativePath): cannot open: \(error.detail)")
        }
        let reader = try CSVRecordReader(stream: stream, path: file.relativePath)
        var positions: [Int]?
        var fields: [ArraySlice<UInt8>?] = []
        do {
            try reader.forEachRecord { record in
                guard let known = positions else {
                    let names = (0..<record.fieldCount).map { record.string($0) ?? "" }
                    positions = columns.map { names.firstIndex(of: $0) ?? -1 }
                    header(record)
                    return
                }
                // One fields array for the whole file, refilled per row (not allocated per row).
                fields.removeAll(keepingCapacity: true)
                for position in known {
                    fields.append(position >= 0 && position < record.fieldCount ? record.slice(position) : nil)
                }
                try body(fields, record)
            }
        } catch let error as CSVReadError {
            throw CSVSource.unreadable(error)
        }
    }
}

/// (id fingerprint, group) pairs, spilled to bucket files by fingerprint.
final class IDPairBuckets {
    private let folder: String
    private var buffers: [[UInt8]]
    private let handles: [FileHandle]

    init(folder: String, count: Int) throws {
        self.folder = folder
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var handles: [FileHandle] = []
        for index in 0..<count {
            let path = folder + "/\(index)"
            guard FileManager.default.createFile(atPath: path, contents: nil) else {
                throw DayfoldError(.output, "cannot create \(path)", fix: "check free disk space")
            }
            handles.append(try FileHandle(forUpdating: URL(fileURLWithPath: path)))
        }
        self.handles = handles
        buffers = Array(repeating: [], count: count)
    }

    func add(_ key: UInt64, _ group: Int32) throws {
        let bucket = Int((key >> 40) % UInt64(handles.count))
        buffers[bucket].appendLittleEndian(key)
        buffers[bucket].appendLittleEndian(group)
        if buffers[bucket].count >= 1 << 16 {
            try handles[bucket].write(contentsOf: buffers[bucket])
            buffers[bucket].removeAll(keepingCapacity: true)
        }
    }

    /// Each bucket's pairs, in the order they were added.
    func forEachBucket(_ body: ([(UInt64, Int32)]) throws -> Void) throws {
        for (index, handle) in handles.enumerated() {
            try handle.write(contentsOf: buffers[index])
            buffers[index] = []
            try handle.seek(toOffset: 0)
            let data = try handle.readToEnd() ?? Data()
            try body(data.littleEndianPairs())
        }
    }

    func remove() {
        for handle in handles { try? handle.close() }
        try? FileManager.default.removeItem(atPath: folder)
    }
}

/// One partition's copy of one input file: `__line,<original record text>`,
/// zstd-compressed when the original was (the path, and so the account, stay the same).
final class SpillWriter {
    private let handle: FileHandle?
    private let compressor: ZstdWriter?
    private var buffer: [UInt8] = []
    /// The SHA-256 of the CSV text written (with `hashing`): what the
    /// partition holds, whatever its compression.
    private var hasher = SHA256Hasher()
    private let hashing: Bool

    init(path: String, header: [UInt8], hashing: Bool = false) throws {
        self.hashing = hashing
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        if path.hasSuffix(".zst") {
            // zstd's fast level -3: about 800 MB/s a core for a quarter of the bytes.
            compressor = try ZstdWriter(path: path, level: -3)
            handle = nil
        } else {
            guard FileManager.default.createFile(atPath: path, contents: nil) else {
                throw DayfoldError(.output, "cannot create the spill file \(path)", fix: "check free disk space")
            }
            handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
            compressor = nil
        }
        buffer.reserveCapacity(1 << 20)
        buffer.append(contentsOf: Array(PartitionRouter.lineColumn.utf8))
        buffer.append(0x2C)
        buffer.append(contentsOf: header)
        buffer.append(0x0A)
    }

    /// Data rows appended.
    private(set) var rows = 0

    func append(line: Int, raw: ArraySlice<UInt8>) throws {
        rows += 1
        CSVReportWriter.appendInteger(Int64(line), into: &buffer)
        buffer.append(0x2C)
        buffer.append(contentsOf: raw)
        buffer.append(0x0A)
        if buffer.count >= 1 << 20 { try flush() }
    }

    private func flush() throws {
        if hashing { hasher.update(buffer) }
        if let compressor { try compressor.write(buffer) } else { try handle?.write(contentsOf: buffer) }
        buffer.removeAll(keepingCapacity: true)
    }

    func close() throws {
        try flush()
        if let compressor { try compressor.close() } else { try handle?.close() }
    }

    /// The hex SHA-256 of the CSV text written (once closed; "" without `hashing`).
    func digest() -> String { hashing ? hasher.finalizeHex() : "" }
}
