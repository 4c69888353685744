/// The output tables of SPEC §7, column names and order exactly as the spec
/// lists them (SPEC §10's analyst columns after them), rows sorted by their
/// keys (SPEC §9 Output form).
public enum ReportTables {
    /// Relationship indexes in report order (by id bytes).
    static func relationshipOrder(_ result: RunResult) -> [Int] {
        relationshipOrder(result.drop, owned: result.owned)
    }

    /// The owned relationships (all when `owned` is nil) in id order.
    static func relationshipOrder(_ drop: IngestedDrop, owned: Set<String>?) -> [Int] {
        guard let owned else { return drop.relationshipIDOrder }
        return drop.relationshipIDOrder.filter { owned.contains(drop.relationships[$0].clientUserID) }
    }

    static func field(_ name: String, _ type: ParquetType, nullable: Bool = false) -> ParquetField {
        ParquetField(name: name, type: type, nullable: nullable)
    }

    /// The `relationship_id` and `client_user_id` columns of a table whose
    /// row `r` belongs to relationship `relationshipOf(r)`.
    static func relationshipColumns(
        _ result: RunResult, _ relationshipOf: @escaping @Sendable (Int) -> Int
    ) -> [OutputColumn] {
        let relationships = result.drop.relationships
        return [
            OutputColumn("relationship_id", .string { relationships[relationshipOf($0)].id }),
            OutputColumn("client_user_id", .string { relationships[relationshipOf($0)].clientUserID }),
        ]
    }

    /// Each relationship's id and client user id as bytes, taken once per
    /// table: appended from a String, each of millions of values took and
    /// released the String's storage.
    static func relationshipIDBytes(_ result: RunResult) -> (
        relationship: ParquetByteColumn, client: ParquetByteColumn
    ) {
        relationshipIDBytes(result.drop)
    }

    /// Each relationship's id and client's id, one row per relationship
    /// (copied into a table's rows with `ParquetByteColumn.append(row:of:)`).
    static func relationshipIDBytes(_ drop: IngestedDrop) -> (
        relationship: ParquetByteColumn, client: ParquetByteColumn
    ) {
        var ids = (relationship: ParquetByteColumn(), client: ParquetByteColumn())
        for relationship in drop.relationships {
            ids.relationship.append(relationship.id)
            ids.client.append(relationship.clientUserID)
        }
        return ids
    }

    /// `relationship_days` (the snapshot) and `coach_daily_summary.csv` (the
    /// report). The table's rows are in the report's order (relationship,
    /// then date); `snapshotLayout` gives the same rows in the snapshot's
    /// month blocks (`RelationshipDaySegments.inMonths`).
    public static func relationshipDays(_ result: RunResult) -> OutputTable {
        let order = relationshipOrder(result)
        let tables = result.relationshipDays
        var table = relationshipDays(result, RelationshipDaySegments.byRelationship(order: order, tables: tables))
        table.snapshotLayout = {
            let layout = RelationshipDaySegments.inMonths(order: order, tables: tables)
            var snapshot = relationshipDays(result, layout)
            snapshot.blockDigests = { ranges in relationshipDayFingerprints(result, layout).digests(of: ranges) }
            snapshot.encodedOnCopy = OutputTable.EncodedOnCopy(column: snapshot.fields.count - 1) {
                asOfData(result, rows: $0)
            }
            return snapshot
        }
        return table
    }

    /// Each row's fingerprint in `relationship_days` laid out as `layout`
    /// (`RowFingerprints`, in the layout's row order): the day's date, zone
    /// name, counts, state and streak, and the relationship's ids and
    /// details; not `as_of`, which a copied block gets encoded again.
    static func relationshipDayFingerprints(_ result: RunResult, _ layout: RelationshipDaySegments) -> RowFingerprints {
        let relationships = relationshipPairs(result.drop.relationships)
        let zones = result.drop.zones
        let zoneNames = (0..<zones.namedCount).map { RowFingerprints.pair(of: [zones.name(of: ZoneID($0))]) }
        // The days in the layout's row order, read in place from their tables.
        var days: [RelationshipDay] = []
        days.reserveCapacity(layout.starts[layout.starts.count - 1])
        for segment in layout.segments { days += result.relationshipDays[segment.relationship][segment.days] }
        return RowFingerprints(count: days.count) { row, hash in
            let day = days[row]
            let relationship = relationships[day.relationship]
            let zone =
                Int(day.zone) < zoneNames.count
                ? zoneNames[Int(day.zone)] : RowFingerprints.pair(of: [zones.name(of: day.zone)])
            hash.combine(relationship.0)
            hash.combine(relationship.1)
            hash.combine(Int64(day.date.days))
            hash.combine(zone.0)
            hash.combine(zone.1)
            hash.combine(Int64(day.completed))
            hash.combine(Int64(day.skipped))
            hash.combine(Int64(day.missed))
            hash.combine(Int64(day.open))
            hash.combine(Int64(day.excluded))
            hash.combine(Int64(day.infoCards))
            hash.combine(day.state.rawValue)
            hash.combine(Int64(day.streakLength))
        }
    }

    /// `relationship_days` with its rows in `layout`'s order and row blocks.
    static func relationshipDays(_ result: RunResult, _ layout: RelationshipDaySegments) -> OutputTable {
        // A row group reads its segments' relationship tables in place, one
        // segment at a time: copying the days out into one flat array
        // retained every day's zone name.
        let tables = result.relationshipDays
        let segments = layout.segments
        let starts = layout.starts
        let idBytes = relationshipIDBytes(result)
        let fields = [
            field("relationship_id", .string), field("client_user_id", .string), field("local_date", .date),
            field("timezone", .string), field("tasks_total", .int64), field("scored", .int64),
            field("completed", .int64), field("skipped", .int64), field("missed", .int64), field("open", .int64),
            field("excluded", .int64), field("info_cards", .int64), field("adherence", .double, nullable: true),
            field("day_state", .string), field("streak_length", .int64),
        ]
        let details = RelationshipDetailBytes(result.drop)
        let zones = result.drop.zones
        // All columns of a row group in one pass over its days.
        var table = OutputTable(
            name: "relationship_days", rowCount: starts[starts.count - 1],
            fields: fields + relationshipDetailFields + [asOfField]
        ) { [segments, tables, starts] range in
            var relationshipID = ParquetByteColumn()
            var clientID = ParquetByteColumn()
            var timezone = ParquetByteColumn()
            var state = ParquetByteColumn()
            // Room from typical lengths (ids 36 bytes, zone names about 20).
            relationshipID.reserveRows(range.count, bytes: 36 * range.count)
            clientID.reserveRows(range.count, bytes: 36 * range.count)
            timezone.reserveRows(range.count, bytes: 20 * range.count)
            state.reserveRows(range.count, bytes: 8 * range.count)
            var dates: [Int32?] = []
            var adherence: [Double?] = []
            dates.reserveCapacity(range.count)
            adherence.reserveCapacity(range.count)
            var counts = [[Int64?]](repeating: [], count: 9)
            for column in counts.indices { counts[column].reserveCapacity(range.count) }
            // The string columns repeat over runs of rows (a relationship's
            // days, a zone's days inside them), so they are written a run
            // at a time.
            var runs: [(relationship: Int, count: Int)] = []
            var position = firstRun(starts, containing: range.lowerBound)
            var row = range.lowerBound
            while row < range.upperBound {
                while starts[position + 1] <= row { position += 1 }
                let relationship = segments[position].relationship
                let end = min(starts[position + 1], range.upperBound)
                runs.append((relationship, end - row))
                let days = tables[relationship]
                let first = segments[position].days.lowerBound
                let offsets = (first + row - starts[position])..<(first + end - starts[position])
                var zoneRun = offsets.lowerBound
                while zoneRun < offsets.upperBound {
                    var zoneEnd = zoneRun + 1
                    while zoneEnd < offsets.upperBound, days[zoneEnd].zone == days[zoneRun].zone { zoneEnd += 1 }
                    timezone.append(zones.name(of: days[zoneRun].zone), count: zoneEnd - zoneRun)
                    zoneRun = zoneEnd
                }
                for offset in offsets {
                    dates.append(days[offset].date.days)
                    counts[0].append(Int64(days[offset].tasksTotal))
                    counts[1].append(Int64(days[offset].scored))
                    counts[2].append(Int64(days[offset].completed))
                    counts[3].append(Int64(days[offset].skipped))
                    counts[4].append(Int64(days[offset].missed))
                    counts[5].append(Int64(days[offset].open))
                    counts[6].append(Int64(days[offset].excluded))
                    counts[7].append(Int64(days[offset].infoCards))
                    counts[8].append(Int64(days[offset].streakLength))
                    adherence.append(days[offset].adherence)
                }
                // Closed days come in runs of one state (`ParquetByteColumn.repeated`).
                var stateRun = offsets.lowerBound
                while stateRun < offsets.upperBound {
                    var stateEnd = stateRun + 1
                    while stateEnd < offsets.upperBound, days[stateEnd].state == days[stateRun].state { stateEnd += 1 }
                    state.append(days[stateRun].state.rawValue, count: stateEnd - stateRun)
                    stateRun = stateEnd
                }
                row = end
            }
            for run in runs {
                relationshipID.append(row: run.relationship, of: idBytes.relationship, count: run.count)
                clientID.append(row: run.relationship, of: idBytes.client, count: run.count)
            }
            return [.utf8(relationshipID), .utf8(clientID), .int32(dates), .utf8(timezone)]
                + counts[0..<8].map { .int64($0) } + [.double(adherence), .utf8(state), .int64(counts[8])]
                + details.columns(runs: runs) + [asOfData(result, rows: range.count)]
        }
        table.blockStarts = layout.blockStarts
        return table
    }

    /// The last position `p` with `starts[p] <= row` (`starts` ascending,
    /// from 0): the run a row group starting at `row` begins in.
    static func firstRun(_ starts: [Int], containing row: Int) -> Int {
        var (low, high) = (0, starts.count - 1)
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= row { low = middle } else { high = middle - 1 }
        }
        return low
    }

    public static func streaks(_ result: RunResult) -> OutputTable {
        let order = Dictionary(uniqueKeysWithValues: relationshipOrder(result).enumerated().map { ($1, $0) })
        let rows = result.streaks.filter { result.owns(relationship: $0.relationship) }.sorted {
            (order[$0.relationship] ?? 0) < (order[$1.relationship] ?? 0)
        }
        return OutputTable(
            name: "streaks", rowCount: rows.count,
            columns: relationshipColumns(result) { rows[$0].relationship } + [
                OutputColumn("as_of_date", .date { rows[$0].asOfDate }),
                OutputColumn("current_streak_days", .int { Int64(rows[$0].currentDays) }),
                OutputColumn("current_streak_start", nullable: true, .date { rows[$0].currentStart }),
                OutputColumn("longest_streak_days", .int { Int64(rows[$0].longestDays) }),
                OutputColumn("longest_streak_start", nullable: true, .date { rows[$0].longestStart }),
                OutputColumn("longest_streak_end", nullable: true, .date { rows[$0].longestEnd }),
                OutputColumn("last_kept_date", nullable: true, .date { rows[$0].lastKept }),
                OutputColumn("adherence_7d", nullable: true, .double { rows[$0].adherence7 }),
                OutputColumn("adherence_30d", nullable: true, .double { rows[$0].adherence30 }),
                OutputColumn("adherence_90d", nullable: true, .double { rows[$0].adherence90 }),
            ] + relationshipDetailColumns(result) { rows[$0].relationship } + [asOfColumn(result)])
    }

    public static func riskSignals(_ result: RunResult) -> OutputTable {
        let order = Dictionary(uniqueKeysWithValues: relationshipOrder(result).enumerated().map { ($1, $0) })
        let rows = result.signals.filter { result.owns(relationship: $0.relationship) }.sorted {
            let left = order[$0.relationship] ?? 0
            let right = order[$1.relationship] ?? 0
            return left != right ? left < right : bytesLess($0.signal, $1.signal)
        }
        return OutputTable(
            name: "risk_signals", rowCount: rows.count,
            columns: relationshipColumns(result) { rows[$0].relationship } + [
                OutputColumn("as_of_date", .date { rows[$0].asOfDate }),
                OutputColumn("signal", .string { rows[$0].signal }),
                OutputColumn("severity", .string { rows[$0].severity }),
                OutputColumn("window_from", .date { rows[$0].windowFrom }),
                OutputColumn("window_to", .date { rows[$0].windowTo }),
                OutputColumn("evidence", .string { rows[$0].evidence }),
                OutputColumn("explanation", .string { rows[$0].explanation }),
            ] + relationshipDetailColumns(result) { rows[$0].relationship } + [asOfColumn(result)])
    }

    public static func progressRanges(_ result: RunResult) -> OutputTable {
        let rows = result.owned == nil ? result.progress : result.progress.filter { result.owns(user: $0.user) }
        return OutputTable(
            name: "progress_ranges", rowCount: rows.count,
            columns: [
                OutputColumn("user_id", .string { rows[$0].user }),
                OutputColumn("metric", .string { rows[$0].metric.rawValue }),
                OutputColumn("window_days", .int { Int64(rows[$0].windowDays) }),
                OutputColumn("window_from", .date { rows[$0].windowFrom }),
                OutputColumn("window_to", .date { rows[$0].windowTo }),
                OutputColumn("requested_source", .string { rows[$0].requestedSource.rawValue }),
                OutputColumn("source", .string { rows[$0].source }),
                OutputColumn("fallback_reason", nullable: true, .string { rows[$0].fallbackReason }),
                OutputColumn("days_with_data", .int { Int64(rows[$0].daysWithData) }),
                OutputColumn("total", nullable: true, .double { rows[$0].total }),
                OutputColumn("average", nullable: true, .double { rows[$0].average }),
                OutputColumn("min", nullable: true, .double { rows[$0].min }),
                OutputColumn("max", nullable: true, .double { rows[$0].max }),
                OutputColumn("target", nullable: true, .double { rows[$0].target }),
                OutputColumn("target_provenance", nullable: true, .string { rows[$0].targetProvenance }),
                OutputColumn("percent_of_target", nullable: true, .double { rows[$0].percentOfTarget }),
                OutputColumn("coverage_label", .string { rows[$0].coverageLabel }),
                asOfColumn(result),
            ])
    }

    /// The fields of `client_days` (SPEC §6, §10's analyst columns after
    /// `as_of`). The metric columns follow `HealthMetric.registry`: the
    /// journal's metrics once per source, every metric's health value, then
    /// the journal metrics' chosen values.
    static let clientDayFields =
        [
            field("user_id", .string), field("local_date", .date), field("timezone", .string),
            field("journal_entries", .int64),
        ] + HealthMetric.registry.compactMap(\.journalColumn).map { field($0, .double, nullable: true) }
        + [field("health_records", .int64)]
        + HealthMetric.registry.map { field($0.healthColumn, .double, nullable: true) } + [asOfField]
        + dietaryFields

    public static func clientDays(_ result: RunResult) -> OutputTable {
        var rows: [(table: Int32, position: Int32)] = []
        for (tableIndex, table) in result.clientTables.enumerated() where result.owns(user: table.user) {
            for position in table.days.indices { rows.append((Int32(tableIndex), Int32(position))) }
        }
        let tables = result.clientTables
        let zoneCatalog = result.drop.zones
        let journalCount = Metric.dietary.count
        let healthCount = Metric.registered.count
        // One pass per row (a table's user is a String: read once per column,
        // it was retained each time).
        return OutputTable(name: "client_days", rowCount: rows.count, fields: clientDayFields) {
            [rows] range in
            var users = ParquetByteColumn()
            var zones = ParquetByteColumn()
            var lastZone: ZoneID?
            var lastZoneName = ""
            var dates: [Int32?] = []
            var journalEntries: [Int64?] = []
            var healthRecords: [Int64?] = []
            // Journal values, health values, chosen values.
            let chosenStart = journalCount + healthCount
            var amounts = [[Double?]](repeating: [], count: chosenStart + journalCount)
            var dietarySource = ParquetByteColumn()
            dietarySource.reserveRows(range.count, bytes: 13 * range.count)
            for row in range {
                let (table, position) = rows[row]
                let day = tables[Int(table)].days[Int(position)]
                let dietary = day.dietary(preferring: tables[Int(table)].requestedDietarySource)
                for index in 0..<journalCount { amounts[chosenStart + index].append(dietary.values[index]) }
                appendSource(dietary.source, to: &dietarySource)
                users.append(tables[Int(table)].user)
                dates.append(day.date.days)
                // A user's days share a zone: its name is made once per run of them.
                if day.zone != lastZone {
                    (lastZone, lastZoneName) = (day.zone, zoneCatalog.name(of: day.zone))
                }
                zones.append(lastZoneName)
                journalEntries.append(Int64(day.journalEntries))
                healthRecords.append(Int64(day.healthRecords))
                for index in 0..<journalCount { amounts[index].append(day.journal[index]) }
                for index in 0..<healthCount { amounts[journalCount + index].append(day.health[position: index]) }
            }
            return [.utf8(users), .int32(dates), .utf8(zones), .int64(journalEntries)]
                + amounts[0..<journalCount].map { .double($0) } + [.int64(healthRecords)]
                + amounts[journalCount..<chosenStart].map { .double($0) } + [asOfData(result, rows: range.count)]
                + amounts[chosenStart...].map { .double($0) } + [.utf8(dietarySource)]
        }
    }

    /// One adherence event per COMPLETED, SKIPPED and MISSED task (SPEC §3).
    public static func adherenceEvents(_ result: RunResult) -> OutputTable {
        adherenceEvents(result.drop, outcomes: result.outcomes, owned: result.owned)
    }

    /// The event snapshot from what it reads of a run: the tasks and their
    /// outcomes (the whole run starts writing it as soon as the outcomes are
    /// known, while the rest of the facts are computed). The table's rows
    /// are in the keys' order (relationship, date, task id: the order a
    /// partitioned run merges by); `snapshotLayout` gives the same rows in
    /// month blocks of `local_date` (Decisions.md, "Snapshots are laid out
    /// in month blocks"), so a month whose events did not change is the same
    /// row groups from one run to the next.
    static func adherenceEvents(_ drop: IngestedDrop, outcomes: [TaskOutcome], owned: Set<String>?) -> OutputTable {
        let order = relationshipOrder(drop, owned: owned)
        var rank = [Int](repeating: 0, count: drop.relationships.count)
        var owns = [Bool](repeating: false, count: drop.relationships.count)
        for (position, index) in order.enumerated() {
            rank[index] = position
            owns[index] = true
        }
        // Sort small (key, outcome index) pairs — (relationship rank, date) as one
        // integer; task ids (bytes) only break ties within a day — not the outcomes.
        var keyed: [(key: Int64, index: Int32)] = []
        for (index, outcome) in outcomes.enumerated()
        where outcome.kind?.isScored == true {
            let task = drop.tasks[outcome.task]
            guard owns[task.relationship] else { continue }
            keyed.append(
                ((Int64(rank[task.relationship]) << 32) | (Int64(task.localDate.days) + (1 << 31)), Int32(index)))
        }
        // The comparator takes the two tables it reads, not the drop: a
        // closure over the whole drop copied it (a retain and release of each
        // of its arrays) on every comparison of ties.
        let tasks = drop.tasks
        let taskIDs = drop.taskIDs
        keyed.sort { left, right in
            if left.key != right.key { return left.key < right.key }
            return taskIDs.less(tasks[outcomes[Int(left.index)].task].id, tasks[outcomes[Int(right.index)].task].id)
        }
        let rows = keyed.map { Int($0.index) }
        var table = adherenceEvents(drop, outcomes: outcomes, rows: rows)
        table.snapshotLayout = {
            let months = MonthBlockOrder(rows) {
                RelationshipDaySegments.monthIndex(tasks[outcomes[$0].task].localDate)
            }
            var snapshot = adherenceEvents(drop, outcomes: outcomes, rows: months.rows)
            snapshot.blockStarts = months.blockStarts
            snapshot.blockDigests = { ranges in
                adherenceEventFingerprints(drop, outcomes: outcomes).digests(of: ranges.map { months.rows[$0] })
            }
            return snapshot
        }
        return table
    }

    /// Each outcome's row fingerprint in `adherence_events` (`RowFingerprints`,
    /// indexed by the outcome's position): the task's id, date and kind name,
    /// the outcome's kind, instant, late and superseded flags and skip
    /// reason, and its relationship's ids and details. Names and
    /// relationships are fingerprinted once each and combined as words.
    static func adherenceEventFingerprints(_ drop: IngestedDrop, outcomes: [TaskOutcome]) -> RowFingerprints {
        let kinds = drop.taskKinds.map { RowFingerprints.pair(of: [$0]) }
        let reasons = drop.eventReasons.map { RowFingerprints.pair(of: [$0]) }
        let relationships = relationshipPairs(drop.relationships)
        let tasks = drop.tasks
        let taskIDs = drop.taskIDs
        return RowFingerprints(count: outcomes.count) { index, hash in
            let outcome = outcomes[index]
            let task = tasks[outcome.task]
            let flags =
                Int64(eventTypeRow(outcome.kind)) << 8 | (outcome.occurredAt == nil ? 4 : 0)
                | (outcome.late ? 1 : 0) | (outcome.supersededVersion ? 2 : 0)
            let reason = outcome.kind == .skipped ? outcome.skipReason.map { reasons[Int($0)] } : nil
            let relationship = relationships[task.relationship]
            let kind = kinds[Int(task.kind)]
            taskIDs.withString(task.id) { hash.combine($0) }
            hash.combine(Int64(task.localDate.days))
            hash.combine(flags)
            hash.combine(outcome.occurredAt?.micros ?? 0)
            hash.combine(relationship.0)
            hash.combine(relationship.1)
            hash.combine(kind.0)
            hash.combine(kind.1)
            hash.combine(Int64(reason == nil ? 0 : 1))
            hash.combine(reason?.0 ?? 0)
            hash.combine(reason?.1 ?? 0)
        }
    }

    /// Each relationship's ids and details, fingerprinted once
    /// (`RowFingerprints.pair(of:)`) for the rows' fingerprints of the
    /// tables that show them.
    static func relationshipPairs(_ relationships: [Relationship]) -> [(UInt64, UInt64)] {
        relationships.map {
            RowFingerprints.pair(of: [$0.id, $0.clientUserID, $0.coachUserID, $0.workspaceID, $0.status])
        }
    }

    /// `adherence_events` with the outcomes `rows` (positions in
    /// `outcomes`) as its rows, in that order.
    private static func adherenceEvents(_ drop: IngestedDrop, outcomes: [TaskOutcome], rows: [Int]) -> OutputTable {
        let kindNames = ParquetByteColumn(drop.taskKinds)
        let reasonNames = ParquetByteColumn(drop.eventReasons)
        let idBytes = relationshipIDBytes(drop)
        let fields = [
            field("event_id", .string), field("daily_task_instance_id", .string), field("relationship_id", .string),
            field("client_user_id", .string), field("local_date", .date), field("task_kind", .string),
            field("event_type", .string), field("score", .double), field("occurred_at", .timestampMicros),
            field("late", .boolean), field("superseded_version", .boolean),
            field("skip_reason", .string, nullable: true),
        ]
        let details = RelationshipDetailBytes(drop)
        // Columns are filled in short passes over the row range, each reading
        // one large array at rows in no useful order (outcomes and tasks sit in
        // file order): with little work per iteration the CPU overlaps the
        // cache misses, which dominate this table.
        return OutputTable(name: "adherence_events", rowCount: rows.count, fields: fields + relationshipDetailFields) {
            range in
            var taskOf: [Int] = []
            var kinds: [OutcomeKind?] = []
            var skipReason = ParquetByteColumn()
            var occurred: [Int64?] = []
            var late: [Bool?] = []
            var superseded: [Bool?] = []
            taskOf.reserveCapacity(range.count)
            kinds.reserveCapacity(range.count)
            skipReason.reserveRows(range.count)
            occurred.reserveCapacity(range.count)
            late.reserveCapacity(range.count)
            superseded.reserveCapacity(range.count)
            outcomes.forEach(at: rows[range]) { outcome in
                taskOf.append(outcome.task)
                let kind = outcome.kind
                kinds.append(kind)
                occurred.append(outcome.occurredAt?.micros)
                late.append(outcome.late)
                superseded.append(outcome.supersededVersion)
                if kind == .skipped, let reason = outcome.skipReason {
                    skipReason.append(row: Int(reason), of: reasonNames)
                } else {
                    skipReason.appendNull()
                }
            }
            var relationshipOf: [Int] = []
            var dates: [Int32?] = []
            var taskID = ParquetByteColumn()
            var taskKind = ParquetByteColumn()
            relationshipOf.reserveCapacity(range.count)
            dates.reserveCapacity(range.count)
            taskID.reserveRows(range.count, bytes: 36 * range.count)
            taskKind.reserveRows(range.count, bytes: 8 * range.count)
            // Three dependent loads per row (the task, its id's offsets, the
            // id's bytes): the walk starts each some rows before it is needed.
            drop.tasks.forEach(at: taskOf, string: { $0.id }, of: drop.taskIDs) { task, id in
                relationshipOf.append(task.relationship)
                dates.append(task.localDate.days)
                taskID.append(id)
                taskKind.append(row: Int(task.kind), of: kindNames)
            }
            var relationshipID = ParquetByteColumn()
            var clientID = ParquetByteColumn()
            relationshipID.reserveRows(range.count, bytes: 36 * range.count)
            clientID.reserveRows(range.count, bytes: 36 * range.count)
            for relationship in relationshipOf {
                relationshipID.append(row: relationship, of: idBytes.relationship)
                clientID.append(row: relationship, of: idBytes.client)
            }
            var eventID = ParquetByteColumn()
            var type = ParquetByteColumn()
            eventID.reserveRows(range.count, bytes: 2 * 32 * range.count)
            type.reserveRows(range.count, bytes: 9 * range.count)
            // An event's id is the hex SHA-256 of `task id|event type` (SPEC §7),
            // two rows at a time: their digests are computed side by side.
            // The types' names are read from one small column (`eventTypeNames`):
            // a name taken per row from its array retained and released it.
            let ids = taskID.bytes.span
            let typeNames = eventTypeNames
            let names = typeNames.bytes.span
            var position = 0
            while position + 1 < kinds.count {
                let first = eventTypeRow(kinds[position])
                let second = eventTypeRow(kinds[position + 1])
                eventID.appendBuilt(2, width: 64) {
                    EventIDDigests.appendPair(
                        ids.extracting(taskID.range(position)), names.extracting(typeNames.range(first)),
                        ids.extracting(taskID.range(position + 1)), names.extracting(typeNames.range(second)),
                        into: &$0)
                }
                type.append(row: first, of: typeNames)
                type.append(row: second, of: typeNames)
                position += 2
            }
            if position < kinds.count {
                let row = eventTypeRow(kinds[position])
                eventID.appendBuilt {
                    EventIDDigests.append(
                        ids.extracting(taskID.range(position)), names.extracting(typeNames.range(row)), into: &$0)
                    return true
                }
                type.append(row: row, of: typeNames)
            }
            return [
                .utf8(eventID), .utf8(taskID), .utf8(relationshipID), .utf8(clientID), .int32(dates), .utf8(taskKind),
                .utf8(type), .double(kinds.map { $0 == .completed ? 1 : 0 }), .int64(occurred), .boolean(late),
                .boolean(superseded), .utf8(skipReason),
            ] + details.columns(relationshipOf)
        }
    }

    /// The event types' names by `eventTypeRow`, and an empty name for a
    /// task without an outcome kind (none reaches the table).
    private static let eventTypeNames = ParquetByteColumn(
        [OutcomeKind.completed, .skipped, .excluded, .missed, .open].map(\.rawValue) + [""])

    /// The row of `kind`'s name in `eventTypeNames`.
    private static func eventTypeRow(_ kind: OutcomeKind?) -> Int {
        switch kind {
        case .completed: 0
        case .skipped: 1
        case .excluded: 2
        case .missed: 3
        case .open: 4
        case nil: 5
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
