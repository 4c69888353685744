/// The four CSV reports and the rejects file (SPEC §7), column names and
/// order exactly as the spec lists them, rows sorted by their keys.
public enum ReportTables {
    public static let coachDailySummaryHeader = [
        "relationship_id", "client_user_id", "local_date", "timezone", "tasks_total", "scored", "completed", "skipped",
        "missed", "open", "excluded", "info_cards", "adherence", "day_state", "streak_length",
    ]
    public static let streaksHeader = [
        "relationship_id", "client_user_id", "as_of_date", "current_streak_days", "current_streak_start",
        "longest_streak_days", "longest_streak_start", "longest_streak_end", "last_kept_date", "adherence_7d",
        "adherence_30d", "adherence_90d",
    ]
    public static let riskSignalsHeader = [
        "relationship_id", "client_user_id", "as_of_date", "signal", "severity", "window_from", "window_to", "evidence",
        "explanation",
    ]
    public static let progressHeader = [
        "user_id", "metric", "window_days", "window_from", "window_to", "requested_source", "source", "fallback_reason",
        "days_with_data", "total", "average", "min", "max", "target", "target_provenance", "percent_of_target",
        "coverage_label",
    ]
    public static let rejectsHeader = ["file", "line", "kind", "reason", "raw"]

    /// Relationship indexes in report order (by id bytes).
    static func relationshipOrder(_ result: RunResult) -> [Int] {
        result.drop.relationships.indices.sorted { bytesLess(result.drop.relationships[$0].id, result.drop.relationships[$1].id) }
    }

    public static func coachDailySummary(_ result: RunResult) -> [[String?]] {
        var rows: [[String?]] = []
        for index in relationshipOrder(result) {
            let relationship = result.drop.relationships[index]
            for day in result.relationshipDays[index] {
                rows.append([
                    relationship.id, relationship.clientUserID, day.date.description, day.timezone, String(day.tasksTotal),
                    String(day.scored), String(day.completed), String(day.skipped), String(day.missed), String(day.open),
                    String(day.excluded), String(day.infoCards), day.adherence.cell, day.state.rawValue,
                    String(day.streakLength),
                ])
            }
        }
        return rows
    }

    public static func streaks(_ result: RunResult) -> [[String?]] {
        let order = Dictionary(uniqueKeysWithValues: relationshipOrder(result).enumerated().map { ($1, $0) })
        return result.streaks.sorted { (order[$0.relationship] ?? 0) < (order[$1.relationship] ?? 0) }.map { streak in
            let relationship = result.drop.relationships[streak.relationship]
            return [
                relationship.id, relationship.clientUserID, streak.asOfDate.description, String(streak.currentDays),
                streak.currentStart.cell, String(streak.longestDays), streak.longestStart.cell, streak.longestEnd.cell,
                streak.lastKept.cell, streak.adherence7.cell, streak.adherence30.cell, streak.adherence90.cell,
            ]
        }
    }

    public static func riskSignals(_ result: RunResult) -> [[String?]] {
        let order = Dictionary(uniqueKeysWithValues: relationshipOrder(result).enumerated().map { ($1, $0) })
        return result.signals.sorted {
            let left = order[$0.relationship] ?? 0
            let right = order[$1.relationship] ?? 0
            return left != right ? left < right : bytesLess($0.signal, $1.signal)
        }.map { signal in
            let relationship = result.drop.relationships[signal.relationship]
            return [
                relationship.id, relationship.clientUserID, signal.asOfDate.description, signal.signal, signal.severity,
                signal.windowFrom.description, signal.windowTo.description, signal.evidence, signal.explanation,
            ]
        }
    }

    public static func progressRanges(_ result: RunResult) -> [[String?]] {
        result.progress.map { row in
            [
                row.user, row.metric.rawValue, String(row.windowDays), row.windowFrom.description, row.windowTo.description,
                row.requestedSource.rawValue, row.source, row.fallbackReason, String(row.daysWithData), row.total.cell,
                row.average.cell, row.min.cell, row.max.cell, row.target.cell, row.targetProvenance,
                row.percentOfTarget.cell, row.coverageLabel,
            ]
        }
    }

    public static func rejects(_ drop: IngestedDrop) -> [[String?]] {
        drop.rejects.enumerated().sorted {
            if $0.element.file != $1.element.file { return bytesLess($0.element.file, $1.element.file) }
            if $0.element.line != $1.element.line { return $0.element.line < $1.element.line }
            return $0.offset < $1.offset
        }.map { [$0.element.file, String($0.element.line), $0.element.kind, $0.element.reason, $0.element.raw] }
    }
}
