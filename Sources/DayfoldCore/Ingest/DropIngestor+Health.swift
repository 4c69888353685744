import Foundation

/// health/: health CSV files and Apple Health exports (SPEC §1.5, §9).
/// Both feed one decision function so a sample is judged the same wherever
/// it came from. Deciding needs no time zone, so health is read alongside
/// the task instances; accepted samples wait in a compact list and are
/// folded into per-user, per-day aggregates once the users' zones are known.
extension DropIngestor {
    /// The fields of one health row, from either source: where each lies
    /// in `bytes` (nil for NULL), read in place (slices retained and
    /// released the buffer, eight fields a row).
    struct HealthRow {
        var bytes: [UInt8]
        var user: Range<Int>?
        var type: Range<Int>?
        var value: Range<Int>?
        var unit: Range<Int>?
        var start: Range<Int>?
        var end: Range<Int>?
        var sourceName: Range<Int>?
        var bundleID: Range<Int>?
    }

    /// Decides a health row: its fate and, when rejected, the reason.
    /// Order: unknown type → missing value → bad id → bad instant → unknown
    /// unit → non-numeric → out of range → after as-of → self-source →
    /// exact duplicate → accepted.
    /// Returns the fingerprint it claimed when accepted (taken back if the import fails).
    func decideHealth(_ row: HealthRow) -> (fate: RowFate, reason: String?, claimed: UInt64?) {
        switch judgeHealth(row) {
        case .rejected(let reason): return (.rejected, reason, nil)
        case .ignored: return (.ignored, nil, nil)
        case .candidate(let candidate):
            guard commitHealth(candidate) else { return (.duplicate, nil, nil) }
            return (.accepted, nil, candidate.key)
        }
    }

    /// A health row that passed every check but the duplicate one (its
    /// sample only when rows are kept: `validate` counts without them).
    struct HealthCandidate {
        var key: UInt64
        var sample: HealthIngestState.Sample?
    }

    /// What a health row's own fields decide.
    enum HealthJudgement {
        case rejected(String)
        case ignored
        case candidate(HealthCandidate)
    }

    /// Every check of `decideHealth` but the exact-duplicate one, which
    /// depends on the rows before (see `commitHealth`).
    func judgeHealth(_ row: HealthRow) -> HealthJudgement {
        let bytes = row.bytes
        guard let type = row.type else { return .rejected("missing_column:type") }
        guard let typeIndex = health.typeIndex(bytes, field: type) else { return .ignored }
        let metric = HealthTypes.metric(atIndex: typeIndex)
        guard let userBytes = row.user else { return .rejected("missing_column:user_id") }
        guard let valueBytes = row.value else { return .rejected("missing_column:value") }
        guard let unitBytes = row.unit else { return .rejected("missing_column:unit") }
        guard let startBytes = row.start else { return .rejected("missing_column:start") }
        guard IDBytes.isValid(bytes, userBytes) else { return .rejected("bad_id:user_id") }
        if let bundleBytes = row.bundleID, !IDBytes.isValid(bytes, bundleBytes) {
            return .rejected("bad_id:source_bundle_id")
        }
        guard let start = InstantParser.parseInput(bytes, field: startBytes) else {
            return .rejected("bad_instant:start")
        }
        var end: Instant?
        if let endBytes = row.end {
            guard let parsed = InstantParser.parseInput(bytes, field: endBytes) else {
                return .rejected("bad_instant:end")
            }
            end = parsed.instant
        }
        let unitIndex = health.units.intern(bytes, field: unitBytes)
        let unit = health.units[unitIndex]
        let number = parseInputNumber(bytes, field: valueBytes)
        guard HealthTypes.normalize(0, unit: unit, metric: metric) != nil else {
            return .rejected("unknown_unit:\(unit)/\(String(decoding: bytes[type], as: UTF8.self))")
        }
        let raw: Double
        switch number {
        case .value(let value): raw = value
        case .nonNumeric: return .rejected("non_numeric:value")
        case .outOfRange: return .rejected("out_of_range:value")
        }
        guard let normalized = HealthTypes.normalize(raw, unit: unit, metric: metric) else {
            return .rejected("unknown_unit:\(unit)/\(String(decoding: bytes[type], as: UTF8.self))")
        }
        if isAfterAsOf(start.instant) { return .ignored }
        let bundle = row.bundleID.map { health.sources.intern(bytes, field: $0) } ?? -1
        let name = row.sourceName.map { health.sources.intern(bytes, field: $0) } ?? -1
        if isSelfSource(bundle) || isSelfSource(name) { return .ignored }
        let user = health.users.intern(bytes, field: userBytes)
        var fingerprint = Fingerprint()
        // Type and unit by their indexes: one each per distinct text, so
        // rows differ in them exactly when their texts differ.
        fingerprint.combine(Int64(user))
        fingerprint.combine(Int64(typeIndex))
        fingerprint.combine(Int64(bundle))
        fingerprint.combine(Int64(name))
        fingerprint.combine(start.instant.micros)
        fingerprint.combine(end?.micros ?? Int64.min)
        fingerprint.combine(raw.bitPattern)
        fingerprint.combine(Int64(unitIndex))
        let sample =
            options.retainRows
            ? HealthIngestState.Sample(
                user: user, metric: metric, value: normalized, source: health.sourcePair(bundle, name), start: start,
                end: end, order: 0) : nil
        return .candidate(HealthCandidate(key: fingerprint.value, sample: sample))
    }

    /// The exact-duplicate check, in row order: false when an earlier row
    /// had the same fingerprint; otherwise the sample is accepted (and kept
    /// for the day tables, numbered in acceptance order).
    func commitHealth(_ candidate: HealthCandidate) -> Bool {
        guard health.seen.insert(candidate.key) else { return false }
        acceptHealth(candidate)
        return true
    }

    /// Keeps an accepted candidate's sample for the day tables, numbered in
    /// acceptance order.
    private func acceptHealth(_ candidate: HealthCandidate) {
        if var sample = candidate.sample {
            health.order += 1
            sample.order = health.order
            health.pending.append(sample)
        }
    }

    /// Folds the accepted samples into per-user, per-day aggregates in the
    /// order they were accepted; call once the users' zones are known. With
    /// `onlyUsers`, only those users' samples are folded (their zones are
    /// known sooner); the others' stay pending for a later call. A user's
    /// samples are always folded together, in order, so the split changes nothing.
    func aggregateHealth(onlyUsers include: ((String) -> Bool)? = nil) {
        // Samples grouped by user (stably), so each user's day table is
        // looked up once, not once per sample.
        var byUser = [[Int]](repeating: [], count: health.users.strings.count)
        for (position, sample) in health.pending.enumerated() { byUser[Int(sample.user)].append(position) }
        var folded = [Bool](repeating: false, count: byUser.count)
        for (user, positions) in byUser.enumerated() where !positions.isEmpty {
            let userID = health.users.strings[user]
            if let include, !include(userID) { continue }
            folded[user] = true
            var days = drop.healthDays[userID] ?? [:]
            let zone = drop.userZones.resolver(userID)
            let keepsSamples = drop.asOfCandidates != nil
            for position in positions {
                let sample = health.pending[position]
                let day = zone.localDate(sample.start)
                days[day, default: HealthDay()]
                    .add(
                        sample.metric, sample.value, source: sample.source, start: sample.start.instant,
                        end: sample.end, order: sample.order)
                if keepsSamples {
                    drop.asOfCandidates?.healthSamples.append(
                        HealthSampleOnDay(
                            user: sample.user, day: day, metric: sample.metric, value: sample.value,
                            source: sample.source, start: sample.start.instant, end: sample.end, order: sample.order))
                }
            }
            drop.healthDays[userID] = days
        }
        health.pending = include == nil ? [] : health.pending.filter { !folded[Int($0.user)] }
        drop.asOfCandidates?.healthUsers = health.users.strings
    }

    /// Folds the samples of users with a time-zone history: they need no
    /// instance to be placed, so this runs beside the instances, on this
    /// side's own copy of the zone catalog (the catalog is a value).
    func aggregateHealthOfUsersWithHistory() {
        let history = drop.timezoneRows
        drop.userZones = UserZones(
            zones: drop.zones, history: history, latestInstanceZone: [:], defaultZone: nil)
        aggregateHealth { history[$0]?.isEmpty == false }
    }

    private func isSelfSource(_ index: Int32) -> Bool {
        guard index >= 0 else { return false }
        let position = Int(index)
        if position < health.selfSource.count { return health.selfSource[position] }
        // Sources are interned in order: flag every one not flagged yet.
        while health.selfSource.count <= position {
            health.selfSource.append(options.selfSources.contains(health.sources[Int32(health.selfSource.count)]))
        }
        return health.selfSource[position]
    }

    func readHealthCSV() throws {
        if let resumed = resumption { try resumeHealth(resumed) }
        if options.retainRows { health.pending.reserveCapacity(roomForRows(layout.healthCSV, shortestRow: 120)) }
        health.seen.reserve(expectedRows(layout.healthCSV, bytesPerRow: 200))
        // Candidates wait in short runs before their duplicate check: the
        // check probes a set too large for the cache, and committing a run
        // in order lets each probe's slot be loaded a few rows ahead.
        var waiting: [(HealthCandidate, Int)] = []
        var keys: [UInt64] = []
        waiting.reserveCapacity(256)
        keys.reserveCapacity(256)
        func commitWaiting() {
            health.seen.insertInOrder(keys) { index, isNew in
                let (candidate, account) = waiting[index]
                if isNew { acceptHealth(candidate) }
                count(account, isNew ? .accepted : .duplicate)
            }
            waiting.removeAll(keepingCapacity: true)
            keys.removeAll(keepingCapacity: true)
        }
        for file in layout.healthCSV {
            var missingColumn: String?
            try readCSV(file, HealthColumn.self) { row, account in
                if missingColumn == nil {
                    missingColumn =
                        HealthColumn.allCases.first { $0.isExpected && row.indexes[$0.rawValue] < 0 }?.name ?? ""
                }
                // The fields are read in place, in the record's bytes.
                let fields = HealthRow(
                    bytes: row.record.bytes, user: row.range(HealthColumn.userID), type: row.range(HealthColumn.type),
                    value: row.range(HealthColumn.value),
                    unit: row.range(HealthColumn.unit), start: row.range(HealthColumn.start),
                    end: row.range(HealthColumn.end), sourceName: row.range(HealthColumn.sourceName),
                    bundleID: row.range(HealthColumn.sourceBundleID))
                let judgement: HealthJudgement
                // A column the file lacks rejects every row of a known type (unknown types stay ignored).
                if let missing = missingColumn, !missing.isEmpty,
                    fields.type.map({ HealthTypes.metric(forType: fields.bytes, field: $0) != nil }) ?? true
                {
                    judgement = .rejected("missing_column:\(missing)")
                } else {
                    judgement = judgeHealth(fields)
                }
                switch judgement {
                case .rejected(let reason): row.fail(reason)
                case .ignored: row.fate = .ignored
                case .candidate(let candidate):
                    // Counted when committed (row.fate stays nil).
                    waiting.append((candidate, account))
                    keys.append(candidate.key)
                    if waiting.count == 256 { commitWaiting() }
                }
            }
            commitWaiting()
        }
    }
}

extension DropIngestor {
    /// Starts a resumed reading's health from the kept days and health
    /// state: new samples fold into a user's kept days after the kept
    /// samples, the order a whole reading folds them in. A new health CSV
    /// file is read before every Apple Health export by a whole reading,
    /// so with kept exports it is a reason to read whole.
    fileprivate func resumeHealth(_ resumed: ReadingResumption) throws {
        let keptExports = resumed.accounts.contains {
            $0.kind == HealthColumn.kind && DropLayout.isHealthExport($0.path)
        }
        if keptExports && !layout.healthCSV.isEmpty {
            throw ResumeRefusal(reason: "a new health CSV file would be read before the kept Apple Health exports")
        }
        installKept(HealthColumn.kind)
        let kept = resumed.take { kept in
            (
                taking(&kept.tables.health, leaving: HealthReadingTables()),
                taking(&kept.drop.healthDays, leaving: [:]), kept.drop.failedImports
            )
        }
        health.restore(kept.0)
        drop.healthDays = kept.1
        drop.failedImports = kept.2
    }
}

/// Ingest state of the health readers: interned strings and the exact-duplicate set.
/// Used by one ingestor's thread at a time: no run-time exclusivity check (see `LoopState`).
final class HealthIngestState {
    @exclusivity(unchecked) var users = ByteInterner()
    @exclusivity(unchecked) var units = ByteInterner()
    @exclusivity(unchecked) var sources = ByteInterner()
    /// Per interned source (by index): whether it is one of the platform's own.
    @exclusivity(unchecked) var selfSource: [Bool] = []
    @exclusivity(unchecked) var seen = FingerprintSet()
    @exclusivity(unchecked) var order = 0
    @exclusivity(unchecked) private var lastType = LastKeyCache<Int?>()

    /// `HealthTypes.index(forType:)`, with the last type remembered (a file
    /// holds a handful of types, in runs).
    func typeIndex(_ bytes: [UInt8], field type: Range<Int>) -> Int? {
        if let known = lastType.value(for: bytes, field: type) { return known }
        let index = HealthTypes.index(forType: bytes, field: type)
        lastType.store(bytes[type], index)
        return index
    }
    /// Accepted samples not yet given their local day (see `aggregateHealth`).
    @exclusivity(unchecked) var pending: [Sample] = []

    struct Sample {
        var user: Int32
        var metric: Metric
        var value: Double
        var source: Int32
        var start: ParsedInstant
        var end: Instant?
        var order: Int
    }
    private var pairs = FingerprintMap()

    /// What a later resumed reading starts from (`ReadingTables`).
    var kept: HealthReadingTables {
        HealthReadingTables(
            users: users.strings, units: units.strings, sources: sources.strings, selfSource: selfSource, seen: seen,
            order: order, pairs: pairs)
    }

    /// Takes up a kept reading's state (no sample pending).
    func restore(_ kept: HealthReadingTables) {
        users = ByteInterner(strings: kept.users)
        units = ByteInterner(strings: kept.units)
        sources = ByteInterner(strings: kept.sources)
        selfSource = kept.selfSource
        seen = kept.seen
        order = kept.order
        pairs = kept.pairs
    }

    /// A dense id for the source pair (bundle id, name).
    func sourcePair(_ bundle: Int32, _ name: Int32) -> Int32 {
        // Both ids are ≥ -1: shifted by one they fit 31 bits each, and the top
        // bit keeps the key from being 0 (the map's empty slot).
        let key =
            (1 << 63) | UInt64(UInt32(bitPattern: bundle &+ 1)) << 32 | UInt64(UInt32(bitPattern: name &+ 1))
        return pairs.intern(key).index
    }
}
