/// The output tables of SPEC §7, column names and order exactly as the spec
/// lists them, rows sorted by their keys (SPEC §9 Output form).
public enum ReportTables {
    /// Relationship indexes in report order (by id bytes).
    static func relationshipOrder(_ result: RunResult) -> [Int] {
        result.drop.relationships.indices.filter { result.owns(relationship: $0) }.sorted {
            bytesLess(result.drop.relationships[$0].id, result.drop.relationships[$1].id)
        }
    }

    /// `relationship_days` (the snapshot) and `coach_daily_summary.csv` (the report).
    public static func relationshipDays(_ result: RunResult, name: String = "relationship_days") -> OutputTable {
        var rows: [(Int, Int)] = []
        for index in relationshipOrder(result) {
            for position in result.relationshipDays[index].indices { rows.append((index, position)) }
        }
        let fields = [
            field("relationship_id", .string), field("client_user_id", .string), field("local_date", .date),
            field("timezone", .string), field("tasks_total", .int64), field("scored", .int64),
            field("completed", .int64),
            field("skipped", .int64), field("missed", .int64), field("open", .int64), field("excluded", .int64),
            field("info_cards", .int64), field("adherence", .double, nullable: true), field("day_state", .string),
            field("streak_length", .int64),
        ]
        return OutputTable(name: name, fields: fields, rowCount: rows.count) { rowIndex in
            let (index, position) = rows[rowIndex]
            let relationship = result.drop.relationships[index]
            let day = result.relationshipDays[index][position]
            return [
                .string(relationship.id), .string(relationship.clientUserID), .date(day.date), .string(day.timezone),
                .int(Int64(day.tasksTotal)), .int(Int64(day.scored)), .int(Int64(day.completed)),
                .int(Int64(day.skipped)), .int(Int64(day.missed)), .int(Int64(day.open)), .int(Int64(day.excluded)),
                .int(Int64(day.infoCards)), .double(day.adherence), .string(day.state.rawValue),
                .int(Int64(day.streakLength)),
            ]
        }
    }

    public static func streaks(_ result: RunResult) -> OutputTable {
        let order = Dictionary(uniqueKeysWithValues: relationshipOrder(result).enumerated().map { ($1, $0) })
        let rows = result.streaks.filter { result.owns(relationship: $0.relationship) }.sorted {
            (order[$0.relationship] ?? 0) < (order[$1.relationship] ?? 0)
        }
        let fields = [
            field("relationship_id", .string), field("client_user_id", .string), field("as_of_date", .date),
            field("current_streak_days", .int64), field("current_streak_start", .date, nullable: true),
            field("longest_streak_days", .int64), field("longest_streak_start", .date, nullable: true),
            field("longest_streak_end", .date, nullable: true), field("last_kept_date", .date, nullable: true),
            field("adherence_7d", .double, nullable: true), field("adherence_30d", .double, nullable: true),
            field("adherence_90d", .double, nullable: true),
        ]
        return OutputTable(name: "streaks", fields: fields, rowCount: rows.count) { rowIndex in
            let streak = rows[rowIndex]
            let relationship = result.drop.relationships[streak.relationship]
            return [
                .string(relationship.id), .string(relationship.clientUserID), .date(streak.asOfDate),
                .int(Int64(streak.currentDays)), .date(streak.currentStart), .int(Int64(streak.longestDays)),
                .date(streak.longestStart), .date(streak.longestEnd), .date(streak.lastKept),
                .double(streak.adherence7),
                .double(streak.adherence30), .double(streak.adherence90),
            ]
        }
    }

    public static func riskSignals(_ result: RunResult) -> OutputTable {
        let order = Dictionary(uniqueKeysWithValues: relationshipOrder(result).enumerated().map { ($1, $0) })
        let rows = result.signals.filter { result.owns(relationship: $0.relationship) }.sorted {
            let left = order[$0.relationship] ?? 0
            let right = order[$1.relationship] ?? 0
            return left != right ? left < right : bytesLess($0.signal, $1.signal)
        }
        let fields = [
            field("relationship_id", .string), field("client_user_id", .string), field("as_of_date", .date),
            field("signal", .string), field("severity", .string), field("window_from", .date),
            field("window_to", .date),
            field("evidence", .string), field("explanation", .string),
        ]
        return OutputTable(name: "risk_signals", fields: fields, rowCount: rows.count) { rowIndex in
            let signal = rows[rowIndex]
            let relationship = result.drop.relationships[signal.relationship]
            return [
                .string(relationship.id), .string(relationship.clientUserID), .date(signal.asOfDate),
                .string(signal.signal),
                .string(signal.severity), .date(signal.windowFrom), .date(signal.windowTo), .string(signal.evidence),
                .string(signal.explanation),
            ]
        }
    }

    public static func progressRanges(_ result: RunResult) -> OutputTable {
        let fields = [
            field("user_id", .string), field("metric", .string), field("window_days", .int64),
            field("window_from", .date),
            field("window_to", .date), field("requested_source", .string), field("source", .string),
            field("fallback_reason", .string, nullable: true), field("days_with_data", .int64),
            field("total", .double, nullable: true), field("average", .double, nullable: true),
            field("min", .double, nullable: true), field("max", .double, nullable: true),
            field("target", .double, nullable: true), field("target_provenance", .string, nullable: true),
            field("percent_of_target", .double, nullable: true), field("coverage_label", .string),
        ]
        let progress = result.owned == nil ? result.progress : result.progress.filter { result.owns(user: $0.user) }
        return OutputTable(name: "progress_ranges", fields: fields, rowCount: progress.count) { rowIndex in
            let row = progress[rowIndex]
            return [
                .string(row.user), .string(row.metric.rawValue), .int(Int64(row.windowDays)), .date(row.windowFrom),
                .date(row.windowTo), .string(row.requestedSource.rawValue), .string(row.source),
                .string(row.fallbackReason),
                .int(Int64(row.daysWithData)), .double(row.total), .double(row.average), .double(row.min),
                .double(row.max), .double(row.target), .string(row.targetProvenance), .double(row.percentOfTarget),
                .string(row.coverageLabel),
            ]
        }
    }

    public static func clientDays(_ result: RunResult) -> OutputTable {
        var rows: [(Int, Int)] = []
        for (tableIndex, table) in result.clientTables.enumerated() where result.owns(user: table.user) {
            for position in table.days.indices { rows.append((tableIndex, position)) }
        }
        let fields = [
            field("user_id", .string), field("local_date", .date), field("timezone", .string),
            field("journal_entries", .int64), field("journal_energy_kcal", .double, nullable: true),
            field("journal_protein_g", .double, nullable: true), field("journal_carbs_g", .double, nullable: true),
            field("journal_fat_g", .double, nullable: true), field("health_records", .int64),
            field("health_energy_kcal", .double, nullable: true), field("health_protein_g", .double, nullable: true),
            field("health_carbs_g", .double, nullable: true), field("health_fat_g", .double, nullable: true),
            field("water_ml", .double, nullable: true), field("steps", .double, nullable: true),
            field("body_mass_kg", .double, nullable: true),
        ]
        return OutputTable(name: "client_days", fields: fields, rowCount: rows.count) { rowIndex in
            let (tableIndex, position) = rows[rowIndex]
            let table = result.clientTables[tableIndex]
            let day = table.days[position]
            return [
                .string(table.user), .date(day.date), .string(day.timezone), .int(Int64(day.journalEntries)),
                .double(day.journal[0]), .double(day.journal[1]), .double(day.journal[2]), .double(day.journal[3]),
                .int(Int64(day.healthRecords)), .double(day.health[0]), .double(day.health[1]), .double(day.health[2]),
                .double(day.health[3]), .double(day.waterMl), .double(day.steps), .double(day.bodyMassKg),
            ]
        }
    }

    /// One adherence event per COMPLETED, SKIPPED and MISSED task (SPEC §3).
    public static func adherenceEvents(_ result: RunResult) -> OutputTable {
        let drop = result.drop
        let outcomes = result.outcomes
        var rank = [Int](repeating: 0, count: drop.relationships.count)
        for (position, index) in relationshipOrder(result).enumerated() { rank[index] = position }
        // Sort small (key, outcome index) pairs — (relationship rank, date) as one
        // integer; task ids (bytes) only break ties within a day — not the outcomes.
        var keyed: [(key: Int64, index: Int32)] = []
        for (index, outcome) in outcomes.enumerated()
        where outcome.kind == .completed || outcome.kind == .skipped || outcome.kind == .missed {
            let task = drop.tasks[outcome.task]
            guard result.owns(relationship: task.relationship) else { continue }
            keyed.append(
                ((Int64(rank[task.relationship]) << 32) | (Int64(task.localDate.days) + (1 << 31)), Int32(index)))
        }
        keyed.sort { left, right in
            if left.key != right.key { return left.key < right.key }
            return bytesLess(
                drop.tasks[outcomes[Int(left.index)].task].id, drop.tasks[outcomes[Int(right.index)].task].id)
        }
        let rows = keyed.map(\.index)
        let fields = [
            field("event_id", .string), field("daily_task_instance_id", .string), field("relationship_id", .string),
            field("client_user_id", .string), field("local_date", .date), field("task_kind", .string),
            field("event_type", .string), field("score", .double), field("occurred_at", .timestampMicros),
            field("late", .boolean), field("superseded_version", .boolean),
            field("skip_reason", .string, nullable: true),
        ]
        return OutputTable(name: "adherence_events", fields: fields, rowCount: rows.count) { rowIndex in
            let outcome = outcomes[Int(rows[rowIndex])]
            let task = drop.tasks[outcome.task]
            let relationship = drop.relationships[task.relationship]
            let type = outcome.kind?.rawValue ?? ""
            return [
                .string(SHA256Hasher.hex("\(task.id)|\(type)")), .string(task.id), .string(relationship.id),
                .string(relationship.clientUserID), .date(task.localDate), .string(task.kind), .string(type),
                .double(outcome.kind == .completed ? 1 : 0), .timestamp(outcome.occurredAt), .bool(outcome.late),
                .bool(outcome.supersededVersion), .string(outcome.kind == .skipped ? outcome.skipReason : nil),
            ]
        }
    }

    public static let rejectsHeader = ["file", "line", "kind", "reason", "raw"]

    public static func rejects(_ rejects: [RejectedRecord]) -> [[String?]] {
        rejects.enumerated().sorted {
            if $0.element.file != $1.element.file { return bytesLess($0.element.file, $1.element.file) }
            if $0.element.line != $1.element.line { return $0.element.line < $1.element.line }
            return $0.offset < $1.offset
        }.map { [$0.element.file, String($0.element.line), $0.element.kind, $0.element.reason, $0.element.raw] }
    }
}
