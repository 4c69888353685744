/// Every export kind of a drop, with where its files are found, in the
/// order SPEC §1 and §11.1 list them: the one list the column reference
/// (`Documentation/Columns.md`) is rendered from. Each kind's columns come
/// from its declaration (`Ingest/Kinds/`), so the reference cannot drift
/// from what the reader does; `ExportKindsTests` fails when the file is not
/// what the declarations render.
package enum ExportKinds {
    /// One kind: its name (in rejects and accounting), where its files are,
    /// and its declared columns.
    package struct Kind: Sendable {
        package var name: String
        package var files: String
        package var columns: [Column]
        /// Columns of the export that are never read and reach no output (SPEC §11.1).
        package var neverRead: [String]
    }

    /// One declared column and what the reader asks of it.
    package struct Column: Sendable {
        package var name: String
        package var isRequired: Bool
        package var isExpected: Bool
        package var isCheckedAsID: Bool
    }

    package static let all: [Kind] = [
        kind(RelationshipColumn.self, files: "subjects/relationships.csv"),
        kind(TimezoneColumn.self, files: "subjects/timezones.csv"),
        kind(GoalColumn.self, files: "subjects/goals.csv"),
        kind(PreferenceColumn.self, files: "subjects/preferences.csv"),
        kind(InstanceColumn.self, files: "tasks/instances/*.csv"),
        kind(StatusEventColumn.self, files: "tasks/status_events/*.csv"),
        kind(ValueEntryColumn.self, files: "tasks/value_entries/*.csv"),
        kind(InfoCardColumn.self, files: "tasks/info_cards/*.csv"),
        kind(WorkoutLogColumn.self, files: "tasks/workout_logs/*.csv"),
        kind(JournalColumn.self, files: "journal/*.csv (or table journal_entries of journal/*.sqlite)"),
        kind(HealthColumn.self, files: "health/<user_id>/*.csv (Apple Health exports: AppleHealth.md)"),
        kind(NotificationPreferenceColumn.self, files: "subjects/notification_preferences.csv"),
        kind(PushInstallationColumn.self, files: "push/installations/*.csv"),
        kind(PushIntentColumn.self, files: "push/intents/*.csv"),
        kind(PushDeliveryColumn.self, files: "push/deliveries/*.csv"),
        kind(PushReceiptColumn.self, files: "push/receipts/*.csv"),
    ]

    private static func kind<Declared: ExportColumns>(_ declared: Declared.Type, files: String) -> Kind {
        Kind(
            name: Declared.kind, files: files,
            columns: Declared.allCases.map {
                Column(
                    name: $0.name, isRequired: $0.isRequired, isExpected: $0.isExpected,
                    isCheckedAsID: $0.isCheckedAsID)
            },
            neverRead: Declared.neverRead.sorted())
    }

    /// The column reference as Markdown (what `Documentation/Columns.md` holds).
    package static func reference() -> String {
        var text = """
            # Export columns

            Rendered from the kinds' declarations (`Sources/DayfoldCore/Ingest/Kinds/`,
            listed in `Ingest/ExportKinds.swift`); `ExportKindsTests` fails when this
            file differs from what they render. To write it again after changing a
            declaration: `DAYFOLD_WRITE_COLUMNS=1 swift test --filter ExportKindsTests`.

            - **required**: a row without a value is rejected (`missing_column:<name>`).
            - **expected**: a header without the column gets a line on stderr.
            - **id**: the value is checked as an id (SPEC §10) before the row's other values.
            - Columns a header has and no kind declares are named in the manifest
              and not read. The push kinds' never-read columns (SPEC §11.1) are also
              left empty in a rejected row's raw text.

            Which values each column accepts, and the order rows are decided in, are
            SPEC.md's (§1, §9, §11.1).

            """
        for kind in all {
            text += "\n## `\(kind.name)`: `\(kind.files)`\n\n"
            text += "| column | required | expected | id |\n|---|---|---|---|\n"
            for column in kind.columns {
                let marks = [column.isRequired, column.isExpected, column.isCheckedAsID].map { $0 ? "yes" : "" }
                text += "| `\(column.name)` | " + marks.joined(separator: " | ") + " |\n"
            }
            if !kind.neverRead.isEmpty {
                text += "\nNever read: " + kind.neverRead.map { "`\($0)`" }.joined(separator: ", ") + ".\n"
            }
        }
        return text
    }
}
