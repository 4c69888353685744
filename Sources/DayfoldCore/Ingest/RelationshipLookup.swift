/// Relationship ids to their index in `IngestedDrop.relationships`.
struct RelationshipLookup: Sendable {
    let table: ByteKeyTable
    let relationshipOfKey: [Int]

    func relationship(_ id: ArraySlice<UInt8>?) -> Int? {
        guard let id, let key = table.find(id) else { return nil }
        return relationshipOfKey[Int(key)]
    }
}
