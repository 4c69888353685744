/// The decisions on an as-of series' per-step rows (`TaskRowSteps`),
/// carried from one step to the next: a step tests again only the groups
/// with a row between the two as-ofs.
///
/// Why that is exact. Rows linked by a shared id or retry key form a
/// group, and no key is shared across groups, so a row's duplicate test
/// reads only the rows of its group that come before it in file order and
/// are not after the as-of. Between two as-ofs, a group none of whose rows
/// lies between them sees the same rows, so its decisions stand; a group
/// with such a row is tested again, whole, in file order. That holds both
/// ways (a step after the one before, or before it).
struct TaskRowDecisions: Sendable {
    /// Whether the current step accepts each per-step row (indexes into
    /// `TaskRowSteps.perStepPositions`).
    private(set) var accepted: [Bool]
    private var asOf: Instant?
    /// Whether each group is already listed for testing again (kept between
    /// steps so that a step allocates nothing of the groups' size).
    private var marked: [Bool]

    init(_ steps: TaskRowSteps) {
        accepted = [Bool](repeating: false, count: steps.perStepPositions.count)
        marked = [Bool](repeating: false, count: steps.perStepGroups.offsets.count - 1)
    }

    /// Moves the decisions to `asOf` and returns the per-step rows whose
    /// decision changed (indexes into `perStepPositions`, no order promised).
    /// The first step tests every row, as does a step before the series'
    /// first.
    mutating func advance<Row>(to asOf: Instant, steps: TaskRowSteps, rows: TaskRowCandidates<Row>) -> [Int] {
        guard let previous = self.asOf, min(previous, asOf) >= steps.from else {
            self.asOf = asOf
            let decided = steps.perStepAccepted(rows, asOf: asOf)
            defer { accepted = decided }
            return decided.indices.filter { decided[$0] != accepted[$0] }
        }
        self.asOf = asOf
        let groups = steps.perStepGroups
        var touched: [Int] = []
        for index in steps.perStepRows(between: min(previous, asOf), and: max(previous, asOf)) {
            let group = Int(steps.perStepGroupOf[Int(index)])
            if !marked[group] {
                marked[group] = true
                touched.append(group)
            }
        }
        var changed: [Int] = []
        var dedup = SmallTaskRowDeduplicator()
        for group in touched {
            marked[group] = false
            dedup.removeAll()
            for member in groups.range(group) {
                let index = groups.members[member]
                let position = Int(steps.perStepPositions[index])
                let now =
                    rows.instants[position] <= asOf
                    && dedup.claim(idKey: rows.idKeys[position], retryKey: rows.retryKeys[position])
                if now != accepted[index] {
                    accepted[index] = now
                    changed.append(index)
                }
            }
        }
        return changed
    }
}

/// `TaskRowDeduplicator` for one group of linked rows: most groups hold a
/// row or two, so their keys are searched in a list; a large group moves
/// to the hashed sets.
struct SmallTaskRowDeduplicator {
    private var ids: [UInt64] = []
    private var retries: [UInt64] = []
    private var large: TaskRowDeduplicator?

    mutating func removeAll() {
        ids.removeAll(keepingCapacity: true)
        retries.removeAll(keepingCapacity: true)
        large = nil
    }

    /// The duplicate test of SPEC §1.3, as `TaskRowDeduplicator.claim`.
    mutating func claim(idKey: UInt64, retryKey: UInt64?) -> Bool {
        if large != nil { return large?.claim(idKey: idKey, retryKey: retryKey) ?? false }
        if ids.contains(idKey) { return false }
        if let retryKey, retries.contains(retryKey) { return false }
        ids.append(idKey)
        if let retryKey { retries.append(retryKey) }
        if ids.count > 32 {
            var hashed = TaskRowDeduplicator()
            for id in ids { _ = hashed.ids.insert(id) }
            for retry in retries { _ = hashed.retries.insert(retry) }
            large = hashed
        }
        return true
    }
}
