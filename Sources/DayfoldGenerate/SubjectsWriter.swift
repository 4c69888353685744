import DayfoldCore

/// Writes `subjects/`: relationships (with a few rows exported twice),
/// timezones (signup rows, moves to another zone, a few users with none),
/// goals (confirmed and suggested targets) and Progress source preferences.
enum SubjectsWriter {
    static let relationshipHeader = RelationshipColumn.header
    /// The export's `changed_by` is not read by dayfold.
    static let timezoneHeader = TimezoneColumn.header + ",changed_by"
    static let goalHeader = GoalColumn.header
    static let preferenceHeader = PreferenceColumn.header

    static func write(
        clients: [SyntheticClient], root: String, zstd: Bool, context: SyntheticDropContext
    ) throws -> [DropPartWriter.Part] {
        func writer(_ name: String, _ header: String) throws -> DropPartWriter {
            try DropPartWriter(
                root: root, folder: "subjects", baseName: name, header: header, zstd: zstd, maxPartBytes: .max)
        }
        var relationships = try writer("relationships", relationshipHeader)
        var timezones = try writer("timezones", timezoneHeader)
        var goals = try writer("goals", goalHeader)
        var preferences = try writer("preferences", preferenceHeader)
        let words = SyntheticVocabulary.self
        var repeated: [SyntheticClient] = []
        for client in clients {
            var rng = SplitMix64(seed: context.seed, stream: 0x5B1E, client.index)
            appendRelationship(client, to: &relationships.row)
            try relationships.endRow()
            if rng.chance(0.005) { repeated.append(client) }

            if client.hasTimezoneRow {
                timezones.row.put(client.user)
                timezones.row.put(context.zones.names[client.zone])
                timezones.row.put(
                    SyntheticInstant(day: client.startedOn - 1, minuteOfDay: 480, offsetSeconds: 0), .postgresUTC)
                timezones.row.append(words.signup)
                try timezones.endRow()
                if client.moveDay != Int.max {
                    timezones.row.put(client.user)
                    timezones.row.put(context.zones.names[client.movedZone])
                    timezones.row.put(
                        context.zones.instant(zone: client.zone, day: client.moveDay - 1, minuteOfDay: 1140), .isoOffset
                    )
                    timezones.row.append(words.deviceChange)
                    try timezones.endRow()
                }
            }

            let goalsFrom = max(client.startedOn, context.firstDay - 30)
            if rng.chance(0.45) {
                try goal(client, words.energy, 1800 + 50 * rng.below(17), words.confirmed, goalsFrom, &goals)
                if rng.chance(0.2) {
                    let later = goalsFrom + rng.below(max(1, context.lastDay - goalsFrom))
                    try goal(client, words.energy, 1800 + 50 * rng.below(17), words.confirmed, later, &goals)
                }
            }
            if rng.chance(0.3) {
                try goal(client, words.protein, 60 + 5 * rng.below(20), words.suggested, goalsFrom, &goals)
            }
            if rng.chance(0.2) { try goal(client, words.steps, 8000, words.suggested, goalsFrom, &goals) }
            if rng.chance(0.15) { try goal(client, words.waterMetric, 2000, words.confirmed, goalsFrom, &goals) }

            let preferenceRoll = rng.below(100)
            if preferenceRoll < 85 {
                preferences.row.put(client.user)
                preferences.row.append(client.prefersHealth ? words.appleHealth : words.localJournal)
                try preferences.endRow()
            } else if preferenceRoll < 88 {
                preferences.row.put(client.user)
                try preferences.endRow()
            }
        }
        // Re-exported rows at the end of the file: the last occurrence wins.
        for client in repeated {
            appendRelationship(client, to: &relationships.row)
            try relationships.endRow()
        }
        return try [
            relationships.finishSingle(), timezones.finishSingle(), goals.finishSingle(), preferences.finishSingle(),
        ]
    }

    private static func appendRelationship(_ client: SyntheticClient, to row: inout CSVRowBuffer) {
        row.put(client.relationship)
        row.put(client.user)
        row.put(client.coach)
        row.put(client.workspace)
        row.put(client.status)
        row.putDate(client.startedOn)
        if let endedOn = client.endedOn { row.date(endedOn) }
    }

    private static func goal(
        _ client: SyntheticClient, _ metric: [UInt8], _ target: Int, _ provenance: [UInt8], _ day: Int,
        _ writer: inout DropPartWriter
    ) throws {
        writer.row.put(client.user)
        writer.row.put(metric)
        writer.row.putInteger(target)
        writer.row.put(provenance)
        writer.row.date(day)
        try writer.endRow()
    }
}
