import Foundation
import Testing

@testable import DayfoldCore

/// The column reference in Documentation/Columns.md is rendered from the
/// kinds' declarations: the docs' column list comes from the same place as
/// the reader's, and this test fails when they part.
@Suite struct ExportKindsTests {
    static let referencePath = TestPaths.repositoryRoot.appendingPathComponent("Documentation/Columns.md")

    @Test func theColumnReferenceIsWhatTheDeclarationsRender() throws {
        let rendered = ExportKinds.reference()
        if ProcessInfo.processInfo.environment["DAYFOLD_WRITE_COLUMNS"] == "1" {
            try Data(rendered.utf8).write(to: Self.referencePath)
        }
        let stored = try String(contentsOf: Self.referencePath, encoding: .utf8)
        #expect(
            stored == rendered,
            "Documentation/Columns.md is stale: DAYFOLD_WRITE_COLUMNS=1 swift test --filter ExportKindsTests")
    }

    @Test func everyKindIsListedOnceWithItsReaderColumns() {
        let names = ExportKinds.all.map(\.name)
        #expect(Set(names).count == names.count)
        #expect(names.count == 16)
        let health = ExportKinds.all.first { $0.name == "health" }
        #expect(health?.columns.map(\.name) == HealthColumn.readerColumns.map(\.name))
        let deliveries = ExportKinds.all.first { $0.name == "push_deliveries" }
        #expect(deliveries?.neverRead.contains("raw_payload") == true)
        let instances = ExportKinds.all.first { $0.name == "instances" }
        #expect(instances?.columns.first { $0.name == "id" }?.isRequired == true)
    }
}
