import Foundation
import Testing

@testable import DayfoldCore

@Suite struct IngestedDropTests {
    private func relationship(_ id: String, client: String) -> Relationship {
        Relationship(
            id: id, clientUserID: client, coachUserID: nil, workspaceID: nil, status: nil, startedOn: nil, endedOn: nil)
    }

    /// The id order the writers take is kept with the relationships: by
    /// unsigned bytes (not by Unicode order: "B" before "a", "é" after "z"),
    /// and again whenever they change.
    @Test func relationshipsKeepTheirIdOrderAsTheyChange() {
        var drop = IngestedDrop(zones: ZoneCatalog())
        drop.relationships = [
            relationship("é", client: "c1"), relationship("ab", client: "c2"), relationship("a", client: "c1"),
            relationship("B", client: "c3"), relationship("z", client: "c2"),
        ]
        #expect(drop.relationshipIDOrder.map { drop.relationships[$0].id } == ["B", "a", "ab", "z", "é"])
        drop.relationships.append(relationship("aa", client: "c3"))
        #expect(drop.relationshipIDOrder.map { drop.relationships[$0].id } == ["B", "a", "aa", "ab", "z", "é"])
        // A partition's writers keep its own clients' relationships, in the same order.
        #expect(
            ReportTables.relationshipOrder(drop, owned: ["c1", "c3"]).map { drop.relationships[$0].id }
                == ["B", "a", "aa", "é"])
        #expect(ReportTables.relationshipOrder(drop, owned: nil) == drop.relationshipIDOrder)
    }
}
