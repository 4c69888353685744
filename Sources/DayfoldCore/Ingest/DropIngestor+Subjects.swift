/// subjects/: relationships, time-zone history, goals, preferences.
/// Repeated keys: the last row wins, earlier ones are duplicates (SPEC §9).
extension DropIngestor {
    /// Keeps the last candidate per key; earlier ones count as duplicates.
    func lastWins<Candidate>(_ candidates: [(key: String, account: Int, value: Candidate)]) -> [Candidate] {
        var winner: [String: Int] = [:]
        for (position, candidate) in candidates.enumerated() { winner[candidate.key] = position }
        var kept: [Candidate] = []
        for (position, candidate) in candidates.enumerated() {
            if winner[candidate.key] == position {
                count(candidate.account, .accepted)
                kept.append(candidate.value)
            } else {
                count(candidate.account, .duplicate)
            }
        }
        return kept
    }

    func readRelationships() throws {
        guard let file = layout.relationships else { return }
        var candidates: [(key: String, account: Int, value: Relationship)] = []
        let spec = columns([
            ("relationship_id", true), ("client_user_id", true), ("coach_user_id", false), ("workspace_id", false),
            ("status", false), ("started_on", false), ("ended_on", false),
        ])
        try readCSV(file, kind: "relationships", columns: spec) { row, account in
            let id = row.text(0)
            let client = row.text(1)
            let coach = row.text(2)
            let workspace = row.text(3)
            let status = row.choice(4, .relationshipStatus)
            let started = row.date(5)
            let ended = row.date(6)
            guard row.rejectReason == nil, let id, let client else { return }
            candidates.append(
                (
                    id, account,
                    Relationship(
                        id: id, clientUserID: client, coachUserID: coach, workspaceID: workspace, status: status,
                        startedOn: started, endedOn: ended)
                ))
        }
        drop.relationships = lastWins(candidates)
        for (index, relationship) in drop.relationships.enumerated() {
            relationshipLookup.set(relationship.id, to: index)
        }
    }

    func readTimezones() throws {
        guard let file = layout.timezones else { return }
        var candidates: [(key: String, account: Int, value: (String, TimezoneRow))] = []
        let spec = columns([("user_id", true), ("timezone", true), ("effective_from", true)])
        try readCSV(file, kind: "timezones", columns: spec) { row, account in
            let user = row.text(0)
            let zoneName = row.text(1)
            var zone: ZoneID?
            if let zoneName {
                zone = drop.zones.id(named: zoneName)
                if zone == nil { row.fail("unknown_timezone:timezone") }
            }
            let from = row.instant(2)
            guard row.rejectReason == nil, let user, let zone, let from else { return }
            candidates.append(
                (
                    "\(user)|\(from.instant.micros)", account,
                    (user, TimezoneRow(zone: zone, effectiveFrom: from.instant, order: candidates.count))
                ))
        }
        for (user, zoneRow) in lastWins(candidates) { drop.timezoneRows[user, default: []].append(zoneRow) }
        for user in drop.timezoneRows.keys {
            drop.timezoneRows[user]?.sort { ($0.effectiveFrom, $0.order) < ($1.effectiveFrom, $1.order) }
        }
    }

    func readGoals() throws {
        guard let file = layout.goals else { return }
        var candidates: [(key: String, account: Int, value: Goal)] = []
        let spec = columns([
            ("user_id", true), ("metric", true), ("target", true), ("provenance", true), ("effective_on", true),
        ])
        try readCSV(file, kind: "goals", columns: spec) { row, account in
            let user = row.text(0)
            let metric = row.text(1)
            if let metric, Metric(rawValue: metric) == nil { row.fail("unknown_metric:metric") }
            let target = row.number(2)
            let provenance = row.choice(3, .goalProvenance)
            let effective = row.date(4)
            guard row.rejectReason == nil, let user, let metric, let target, let provenance, let effective else {
                return
            }
            candidates.append(
                (
                    "\(user)|\(metric)|\(effective.days)", account,
                    Goal(
                        userID: user, metric: metric, target: target, confirmed: provenance == "CONFIRMED",
                        effectiveOn: effective, order: candidates.count)
                ))
        }
        drop.goals = lastWins(candidates)
    }

    func readPreferences() throws {
        guard let file = layout.preferences else { return }
        var candidates: [(key: String, account: Int, value: (String, String))] = []
        let spec = columns([("user_id", true), ("progress_source", false)])
        try readCSV(file, kind: "preferences", columns: spec) { row, account in
            let user = row.text(0)
            let source = row.choice(1, .preferenceSource) ?? "LOCAL_JOURNAL"
            guard row.rejectReason == nil, let user else { return }
            candidates.append((user, account, (user, source)))
        }
        for (user, source) in lastWins(candidates) { drop.preferences[user] = source }
    }
}
