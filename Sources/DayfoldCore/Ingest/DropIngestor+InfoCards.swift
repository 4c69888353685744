/// tasks/info_cards: informational cards, counted per day, never scored
/// (SPEC §1.3, §9: dedup by id, then by relationship, date and card key).
extension DropIngestor {
    func readInfoCards() throws {
        struct CardCandidate {
            var idKey: Int32
            var card: InfoCard
            var key: Int32
            var account: Int
        }
        var candidates: [CardCandidate] = []
        var ids = ByteKeyTable()
        var keys = FingerprintMap()
        // Sized up front (rows are about 230 bytes), as the other id tables are.
        let expected = expectedRows(layout.infoCards, bytesPerRow: 200)
        ids.reserve(expected)
        keys.reserve(expected)
        for file in layout.infoCards {
            try readCSV(file, InfoCardColumn.self) { row, account in
                let id = row.slice(InfoCardColumn.id)
                if id == nil { row.failMissing(InfoCardColumn.id) }
                let relationshipID = row.slice(InfoCardColumn.relationshipID)
                if relationshipID == nil { row.failMissing(InfoCardColumn.relationshipID) }
                let date = row.date(InfoCardColumn.localDate)
                let cardKey = row.slice(InfoCardColumn.cardKey)
                if cardKey == nil { row.failMissing(InfoCardColumn.cardKey) }
                guard row.rejectReason == nil, let id, let relationshipID, let date, let cardKey else { return }
                guard let relationship = relationship(relationshipID) else {
                    row.fail("unknown_relationship")
                    return
                }
                if let ended = drop.relationships[relationship].endedOn, date > ended {
                    row.fate = .ignored
                    return
                }
                let key = keys.intern(DropIngestor.idempotencyKey(relationship, date, [], cardKey)).index
                candidates.append(
                    CardCandidate(
                        idKey: ids.intern(id).index, card: InfoCard(relationship: relationship, localDate: date),
                        key: key,
                        account: account))
            }
        }
        var lastByID = [Int](repeating: -1, count: ids.count)
        for (position, candidate) in candidates.enumerated() { lastByID[Int(candidate.idKey)] = position }
        var lastByKey = [Int](repeating: -1, count: keys.count)
        for (position, candidate) in candidates.enumerated() where lastByID[Int(candidate.idKey)] == position {
            lastByKey[Int(candidate.key)] = position
        }
        for (position, candidate) in candidates.enumerated() {
            if lastByID[Int(candidate.idKey)] == position && lastByKey[Int(candidate.key)] == position {
                count(candidate.account, .accepted)
                drop.infoCards.append(candidate.card)
            } else {
                count(candidate.account, .duplicate)
            }
        }
    }
}
