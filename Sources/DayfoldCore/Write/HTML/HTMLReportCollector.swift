import Synchronization

/// Sees the row groups of the snapshots the report shows as they are
/// written — `streaks`, `risk_signals`, `relationship_days`,
/// `progress_ranges`, `push_delivery_health` — and keeps what the report
/// needs of them. The whole run hands it the row groups built from its
/// facts, a partitioned run and `dayfold merge` the row groups merged from
/// the partitions: the same typed values (the snapshots are byte-identical),
/// so the report is too, and no figure is computed twice.
///
/// Each table is written by one thread, row group after row group, in the
/// table's order; tables are written side by side, so the rows sit behind a
/// lock.
final class HTMLReportCollector: Sendable {
    /// The first date a calendar can show: days before it are not kept
    /// (a relationship's as-of date is within a day of the run's UTC date).
    let firstDay: LocalDate
    private let rows = Mutex(ReportRows())
    /// The relationship whose days are being read, and its days so far
    /// (a relationship's rows are contiguous: the table is sorted by it).
    private let pendingDays = Mutex<(id: [UInt8], days: [ReportRows.Day])>(([], []))

    /// The tables the report reads.
    static let tables: Set<String> = [
        "streaks", "risk_signals", "relationship_days", "progress_ranges", "push_delivery_health",
    ]

    init(asOf: Instant) {
        let utcDay = Int32(
            truncatingIfNeeded: asOf.seconds >= 0 ? asOf.seconds / 86_400 : (asOf.seconds - 86_399) / 86_400)
        firstDay = LocalDate(days: utcDay - Int32(DayCalendarChart.days) - 2)
    }

    /// The observer of table `name`'s row groups (nil for a table the report does not read).
    func observer(table name: String, fields: [ParquetField]) -> (@Sendable ([ParquetColumnData]) -> Void)? {
        guard Self.tables.contains(name) else { return nil }
        if name == "push_delivery_health" {
            rows.withLock {
                $0.hasPush = true
                $0.pushErrorClasses = fields.map(\.name).filter { $0.hasPrefix("failed_") }.map {
                    String($0.dropFirst("failed_".count))
                }
            }
        }
        return { [self] columns in self.take(name, RowGroupView(fields: fields, columns: columns)) }
    }

    /// What was collected, once every table is written.
    var collected: ReportRows {
        flushDays()
        return rows.withLock { $0 }
    }

    private func take(_ table: String, _ view: RowGroupView) {
        switch table {
        case "streaks": takeStreaks(view)
        case "risk_signals": takeSignals(view)
        case "relationship_days": takeDays(view)
        case "progress_ranges": takeProgress(view)
        case "push_delivery_health": takePushHealth(view)
        default: break
        }
    }

    private func takeStreaks(_ view: RowGroupView) {
        let relationship = view.index("relationship_id")
        let client = view.index("client_user_id")
        let coach = view.index("coach_user_id")
        let asOfDate = view.index("as_of_date")
        let current = view.index("current_streak_days")
        let seven = view.index("adherence_7d")
        let thirty = view.index("adherence_30d")
        let ninety = view.index("adherence_90d")
        let taken = (0..<view.rowCount).map { row in
            ReportRows.Streak(
                relationshipID: view.string(relationship, row) ?? "", clientUserID: view.string(client, row) ?? "",
                coachUserID: view.string(coach, row), asOfDate: view.date(asOfDate, row) ?? firstDay,
                currentDays: view.int(current, row) ?? 0, adherence7: view.double(seven, row),
                adherence30: view.double(thirty, row), adherence90: view.double(ninety, row))
        }
        rows.withLock { $0.streaks += taken }
    }

    private func takeSignals(_ view: RowGroupView) {
        let relationship = view.index("relationship_id")
        let client = view.index("client_user_id")
        let coach = view.index("coach_user_id")
        let signal = view.index("signal")
        let severity = view.index("severity")
        let from = view.index("window_from")
        let to = view.index("window_to")
        let explanation = view.index("explanation")
        let taken = (0..<view.rowCount).map { row in
            ReportRows.Signal(
                relationshipID: view.string(relationship, row) ?? "", clientUserID: view.string(client, row) ?? "",
                coachUserID: view.string(coach, row), signal: view.string(signal, row) ?? "",
                severity: view.string(severity, row) ?? "", windowFrom: view.date(from, row) ?? firstDay,
                windowTo: view.date(to, row) ?? firstDay, explanation: view.string(explanation, row) ?? "")
        }
        rows.withLock { $0.signals += taken }
    }

    /// Keeps the days from `firstDay` on; most of the table (a year per
    /// relationship) is only compared and passed over.
    private func takeDays(_ view: RowGroupView) {
        guard let relationship = view.index("relationship_id"), let date = view.index("local_date"),
            case .int32(let dates) = view.columns[date]
        else { return }
        let adherence = view.index("adherence")
        let state = view.index("day_state")
        let first = firstDay.days
        var finished: [([UInt8], [ReportRows.Day])] = []
        pendingDays.withLock { pending in
            for row in 0..<view.rowCount {
                guard let day = dates[row], day >= first else { continue }
                let id = view.bytes(relationship, row)
                if !id.elementsEqual(pending.id) {
                    if !pending.days.isEmpty { finished.append((pending.id, pending.days)) }
                    pending = (Array(id), [])
                }
                pending.days.append(
                    ReportRows.Day(
                        date: LocalDate(days: day), adherence: view.double(adherence, row),
                        state: view.string(state, row) ?? ""))
            }
        }
        guard !finished.isEmpty else { return }
        rows.withLock { rows in
            for (id, days) in finished { rows.days[String(decoding: id, as: UTF8.self), default: []] += days }
        }
    }

    private func flushDays() {
        let last = pendingDays.withLock { pending -> ([UInt8], [ReportRows.Day]) in
            defer { pending = ([], []) }
            return pending
        }
        guard !last.1.isEmpty else { return }
        rows.withLock { $0.days[String(decoding: last.0, as: UTF8.self), default: []] += last.1 }
    }

    private func takeProgress(_ view: RowGroupView) {
        let user = view.index("user_id")
        let metric = view.index("metric")
        let window = view.index("window_days")
        let withData = view.index("days_with_data")
        let average = view.index("average")
        let target = view.index("target")
        let percent = view.index("percent_of_target")
        let coverage = view.index("coverage_label")
        let taken = (0..<view.rowCount).map { row in
            ReportRows.Progress(
                userID: view.string(user, row) ?? "", metric: view.string(metric, row) ?? "",
                windowDays: view.int(window, row) ?? 0, daysWithData: view.int(withData, row) ?? 0,
                average: view.double(average, row), target: view.double(target, row),
                percentOfTarget: view.double(percent, row), coverageLabel: view.string(coverage, row) ?? "")
        }
        rows.withLock { $0.progress += taken }
    }

    private func takePushHealth(_ view: RowGroupView) {
        let day = view.index("day")
        let deliveries = view.index("deliveries")
        let delivered = view.index("delivered")
        let failed = view.index("failed")
        let classes = view.fields.indices.filter { view.fields[$0].name.hasPrefix("failed_") }
        let taken = (0..<view.rowCount).map { row in
            ReportRows.PushHealth(
                day: view.date(day, row) ?? firstDay, deliveries: view.int(deliveries, row) ?? 0,
                delivered: view.int(delivered, row) ?? 0, failed: view.int(failed, row) ?? 0,
                failedByClass: classes.map { view.int($0, row) ?? 0 })
        }
        rows.withLock { $0.pushHealth += taken }
    }
}
