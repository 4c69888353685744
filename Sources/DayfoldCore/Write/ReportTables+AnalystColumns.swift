/// The analyst columns of SPEC §10: each relationship's coach, workspace and
/// status as written, the run's as-of instant, and the day-by-day dietary
/// values of the client day table — so a row can be read without joining
/// back to relationships.csv or the manifest.
extension ReportTables {
    /// A relationship's `coach_user_id`, `workspace_id` and
    /// `relationship_status` as bytes (nil: NULL), one entry per relationship
    /// index, taken once per table: the large tables append them per row
    /// without touching a String.
    struct RelationshipDetailBytes {
        /// One row per relationship (see `ParquetByteColumn.append(row:of:)`).
        var coach = ParquetByteColumn()
        var workspace = ParquetByteColumn()
        var status = ParquetByteColumn()

        init(_ drop: IngestedDrop) {
            for relationship in drop.relationships {
                coach.append(relationship.coachUserID)
                workspace.append(relationship.workspaceID)
                status.append(relationship.status)
            }
        }

        /// The three columns for rows whose relationships are `relationshipOf`,
        /// in order (consecutive rows of one relationship written as a run).
        func columns<Rows: Collection<Int>>(_ relationshipOf: Rows) -> [ParquetColumnData] {
            var runs: [(relationship: Int, count: Int)] = []
            for relationship in relationshipOf {
                if let last = runs.last, last.relationship == relationship {
                    runs[runs.count - 1].count += 1
                } else {
                    runs.append((relationship, 1))
                }
            }
            return columns(runs: runs)
        }

        /// The three columns for runs of rows, each `count` rows of one relationship.
        func columns(runs: [(relationship: Int, count: Int)]) -> [ParquetColumnData] {
            var coachColumn = ParquetByteColumn()
            var workspaceColumn = ParquetByteColumn()
            var statusColumn = ParquetByteColumn()
            let rows = runs.reduce(0) { $0 + $1.count }
            coachColumn.reserveRows(rows, bytes: 36 * rows)
            workspaceColumn.reserveRows(rows, bytes: 36 * rows)
            statusColumn.reserveRows(rows, bytes: 6 * rows)
            for run in runs {
                coachColumn.append(row: run.relationship, of: coach, count: run.count)
                workspaceColumn.append(row: run.relationship, of: workspace, count: run.count)
                statusColumn.append(row: run.relationship, of: status, count: run.count)
            }
            return [.utf8(coachColumn), .utf8(workspaceColumn), .utf8(statusColumn)]
        }
    }

    /// The Parquet fields of the relationship columns, in the order SPEC §10's
    /// worked example writes them (after the table's own columns).
    static let relationshipDetailFields = [
        field("coach_user_id", .string, nullable: true), field("workspace_id", .string, nullable: true),
        field("relationship_status", .string, nullable: true),
    ]

    static let asOfField = field("as_of", .timestampMicros)

    /// The relationship columns of a small table whose row `r` belongs to
    /// relationship `relationshipOf(r)`, read per row.
    static func relationshipDetailColumns(
        _ result: RunResult, _ relationshipOf: @escaping @Sendable (Int) -> Int
    ) -> [OutputColumn] {
        let relationships = result.drop.relationships
        return [
            OutputColumn("coach_user_id", nullable: true, .string { relationships[relationshipOf($0)].coachUserID }),
            OutputColumn("workspace_id", nullable: true, .string { relationships[relationshipOf($0)].workspaceID }),
            OutputColumn(
                "relationship_status", nullable: true, .string { relationships[relationshipOf($0)].status }),
        ]
    }

    /// The `as_of` column of a small table: the run's as-of instant on every row.
    static func asOfColumn(_ result: RunResult) -> OutputColumn {
        let asOf = result.asOf.instant
        return OutputColumn("as_of", .timestamp { _ in asOf })
    }

    /// `rows` copies of the run's as-of instant, as a timestamp column.
    static func asOfData(_ result: RunResult, rows: Int) -> ParquetColumnData {
        .int64([Int64?](repeating: result.asOf.instant.micros, count: rows))
    }

    /// The client day table's dietary fields (SPEC §10), after the health
    /// columns and `as_of`: each journal metric's chosen value, then its source.
    static let dietaryFields =
        HealthMetric.registry.compactMap(\.chosenColumn).map { field($0, .double, nullable: true) }
        + [field("dietary_source", .string, nullable: true)]

    /// Appends a `dietary_source` cell: the source's name, or NULL.
    static func appendSource(_ source: ProgressSource?, to column: inout ParquetByteColumn) {
        switch source {
        case .journal: column.append(journalName[...])
        case .health: column.append(healthName[...])
        case nil: column.appendNull()
        }
    }

    private static let journalName = Array(ProgressSource.journal.rawValue.utf8)
    private static let healthName = Array(ProgressSource.health.rawValue.utf8)
}
