import Testing

@testable import DayfoldCore

/// Each export kind is declared once (`Ingest/Kinds`); what the reader,
/// the generator and the router use comes from the declaration.
@Suite struct ExportColumnsTests {
    /// The shared decisions of events and value entries read both kinds
    /// through `StatusEventColumn`: the shared columns must sit at the same positions.
    @Test func statusEventsAndValueEntriesShareTheirLeadingColumns() {
        for (event, entry) in StatusEventColumn.sharedWithValueEntries {
            #expect(event.rawValue == entry.rawValue, "\(event.name) and \(entry.name)")
        }
        #expect(StatusEventColumn.sharedWithValueEntries.prefix(5).allSatisfy { $0.0.name == $0.1.name })
    }

    /// The reader's columns are the declaration's, in its order, with the
    /// required flags and the id rule of SPEC §10 (every `*_id` column, `id`, `card_key`, `source_key`).
    @Test func readerColumnsFollowTheDeclaration() {
        let instances = InstanceColumn.readerColumns
        #expect(instances.map(\.name) == InstanceColumn.allCases.map(\.name))
        #expect(
            instances.filter(\.required).map(\.name) == [
                "id", "relationship_id", "local_date", "timezone", "task_kind", "source_key", "status",
            ])
        #expect(
            instances.filter(\.isID).map(\.name) == [
                "id", "relationship_id", "source_key", "workspace_id", "source_id",
            ])
        #expect(InfoCardColumn.readerColumns.filter(\.isID).map(\.name) == ["id", "relationship_id", "card_key"])
        #expect(InstanceColumn.header.hasPrefix("id,relationship_id,local_date,timezone,task_kind,source_key,status,"))
    }

    /// Health checks its ids itself, after the type (an unknown type is
    /// ignored whatever it holds): no column is an id to the generic reader,
    /// and the header must have the five a known type needs.
    @Test func healthChecksItsOwnIDsAndExpectsFiveColumns() {
        let columns = HealthColumn.readerColumns
        #expect(columns.allSatisfy { !$0.isID && !$0.required })
        #expect(columns.filter(\.expected).map(\.name) == ["user_id", "type", "value", "unit", "start"])
    }

    /// A declared name is unique within its kind (a header is matched by name).
    @Test func namesAreUniqueWithinEachKind() {
        let kinds: [[String]] = [
            InstanceColumn.allCases.map(\.name), StatusEventColumn.allCases.map(\.name),
            ValueEntryColumn.allCases.map(\.name), WorkoutLogColumn.allCases.map(\.name),
            InfoCardColumn.allCases.map(\.name), JournalColumn.allCases.map(\.name),
            HealthColumn.allCases.map(\.name), RelationshipColumn.allCases.map(\.name),
            TimezoneColumn.allCases.map(\.name), GoalColumn.allCases.map(\.name),
            PreferenceColumn.allCases.map(\.name),
        ]
        for names in kinds { #expect(Set(names).count == names.count, "\(names)") }
    }
}
