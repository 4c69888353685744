/// tasks/info_cards: informational cards, counted per day, never scored
/// (SPEC §1.3, §9: dedup by id, then by relationship, date and card key).
extension DropIngestor {
    func readInfoCards() throws {
        installKept(InfoCardColumn.kind)
        if let resumed = resumption {
            let taken = resumed.take { kept in
                (
                    taking(&kept.drop.infoCards, leaving: []), taking(&kept.tables.cardIDs, leaving: FingerprintSet()),
                    taking(&kept.tables.cardKeys, leaving: FingerprintSet())
                )
            }
            drop.infoCards = taken.0
            tables.cardIDs = taken.1
            tables.cardKeys = taken.2
        }
        struct CardCandidate {
            var idKey: Int32
            var card: InfoCard
            var key: Int32
            var account: Int
            /// The id's hash and the key's fingerprint, for a resumed reading (`ReadingTables`).
            var idHash: UInt64
            var keyPrint: UInt64
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
                let keyPrint = DropIngestor.idempotencyKey(relationship, date, [], cardKey)
                candidates.append(
                    CardCandidate(
                        idKey: ids.intern(id).index, card: InfoCard(relationship: relationship, localDate: date),
                        key: keys.intern(keyPrint).index,
                        account: account, idHash: ByteKeyTable.hash(id), keyPrint: keyPrint))
            }
        }
        // A resumed reading: a new card with a kept card's id or key would
        // make the kept one a duplicate (the last wins).
        if resumption != nil,
            candidates.contains(where: { tables.cardIDs.contains($0.idHash) || tables.cardKeys.contains($0.keyPrint) })
        {
            throw ResumeRefusal(reason: "a new info-card file re-exports a card the kept reading holds")
        }
        if options.keepsReadingTables {
            for candidate in candidates {
                _ = tables.cardIDs.insert(candidate.idHash)
                _ = tables.cardKeys.insert(candidate.keyPrint)
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
