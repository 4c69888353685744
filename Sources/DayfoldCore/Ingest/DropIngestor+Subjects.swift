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
        try readCSV(file, RelationshipColumn.self) { row, account in
            let id = row.text(RelationshipColumn.relationshipID)
            let client = row.text(RelationshipColumn.clientUserID)
            let coach = row.text(RelationshipColumn.coachUserID)
            let workspace = row.text(RelationshipColumn.workspaceID)
            let status = row.choice(RelationshipColumn.status, .relationshipStatus)
            let started = row.date(RelationshipColumn.startedOn)
            let ended = row.date(RelationshipColumn.endedOn)
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
        try readCSV(file, TimezoneColumn.self) { row, account in
            let user = row.text(TimezoneColumn.userID)
            let zoneName = row.text(TimezoneColumn.timezone)
            var zone: ZoneID?
            if let zoneName {
                zone = drop.zones.id(named: zoneName)
                if zone == nil { row.fail("unknown_timezone:timezone") }
            }
            let from = row.instant(TimezoneColumn.effectiveFrom)
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
        try readCSV(file, GoalColumn.self) { row, account in
            let user = row.text(GoalColumn.userID)
            let metric = row.text(GoalColumn.metric)
            if let metric, Metric(rawValue: metric) == nil { row.fail("unknown_metric:metric") }
            let target = row.number(GoalColumn.target)
            let provenance = row.choice(GoalColumn.provenance, .goalProvenance)
            let effective = row.date(GoalColumn.effectiveOn)
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
        try readCSV(file, PreferenceColumn.self) { row, account in
            let user = row.text(PreferenceColumn.userID)
            let source = row.choice(PreferenceColumn.progressSource, .preferenceSource) ?? "LOCAL_JOURNAL"
            guard row.rejectReason == nil, let user else { return }
            candidates.append((user, account, (user, source)))
        }
        for (user, source) in lastWins(candidates) { drop.preferences[user] = source }
    }
}
