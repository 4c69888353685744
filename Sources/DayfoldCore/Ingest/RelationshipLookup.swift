/// Relationship ids to their index in `IngestedDrop.relationships`. A value:
/// the reading thread and the preparing threads each hold a copy (the table
/// is complete once the subjects are read).
struct RelationshipLookup: Sendable {
    private var table = ByteKeyTable()
    private var relationshipOfKey: [Int] = []

    /// Maps `id` to relationship `index` (a repeated id keeps the last index).
    mutating func set(_ id: String, to index: Int) {
        let (key, _) = table.intern(ArraySlice(Array(id.utf8)))
        if Int(key) == relationshipOfKey.count {
            relationshipOfKey.append(index)
        } else {
            relationshipOfKey[Int(key)] = index
        }
    }

    func relationship(_ id: ArraySlice<UInt8>?) -> Int? {
        guard let id else { return nil }
        return table.find(id).map { relationshipOfKey[Int($0)] }
    }

    /// As `relationship(_:)`, for the id `bytes[field]` read in place.
    func relationship(_ bytes: [UInt8], field: Range<Int>) -> Int? {
        table.find(bytes, field: field).map { relationshipOfKey[Int($0)] }
    }
}
