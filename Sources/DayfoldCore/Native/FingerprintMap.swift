/// An open-addressing map from 64-bit fingerprints to small integers:
/// 16 bytes a slot, no per-entry allocation (the partition planner keeps one
/// entry per id of a drop).
struct FingerprintMap {
    /// Key and value side by side: a lookup that finds its key touches one cache line.
    private(set) var slots: [(key: UInt64, value: Int32)] = Array(repeating: (0, 0), count: 1024)
    private(set) var count = 0

    /// Sizes the table for about `keys` keys up front (no regrowth on the way there).
    mutating func reserve(_ keys: Int) {
        var size = slots.count
        while keys * 10 > size * 7 { size *= 2 }
        if size > slots.count { rehash(size) }
    }

    subscript(key: UInt64) -> Int32? {
        get {
            let mask = slots.count - 1
            var index = Int(truncatingIfNeeded: key) & mask
            while true {
                let slot = slots[index]
                if slot.key == 0 { return nil }
                if slot.key == key { return slot.value }
                index = (index + 1) & mask
            }
        }
        set {
            guard let newValue else { return }
            if (count + 1) * 10 > slots.count * 7 { rehash(slots.count * 2) }
            let mask = slots.count - 1
            var index = Int(truncatingIfNeeded: key) & mask
            while slots[index].key != 0 && slots[index].key != key { index = (index + 1) & mask }
            if slots[index].key == 0 { count += 1 }
            slots[index] = (key, newValue)
        }
    }

    /// The dense index of `key` (0, 1, 2… in order of first sight), adding it
    /// when new (one probe). Use either this or the subscript setter on one map, not both.
    mutating func intern(_ key: UInt64) -> (index: Int32, isNew: Bool) {
        if (count + 1) * 10 > slots.count * 7 { rehash(slots.count * 2) }
        let mask = slots.count - 1
        var index = Int(truncatingIfNeeded: key) & mask
        while true {
            let slot = slots[index]
            if slot.key == key { return (slot.value, false) }
            if slot.key == 0 {
                let value = Int32(count)
                slots[index] = (key, value)
                count += 1
                return (value, true)
            }
            index = (index + 1) & mask
        }
    }

    private mutating func rehash(_ size: Int) {
        let old = slots
        slots = HugePages.array(repeating: (0, 0), count: size)
        count = 0
        for slot in old where slot.key != 0 { self[slot.key] = slot.value }
    }
}

extension FingerprintMap {
    /// Writes the map as it lies (its slots and count), for a kept reading
    /// (`ReadingTables`).
    func archive(into out: inout BinaryArchiveWriter) throws(SystemCallError) {
        try out.write(plain: slots)
        out.write(count)
    }

    /// The map `archive(into:)` wrote. Throws when its shape is not a map's.
    init(from reader: inout BinaryArchiveReader) throws(BinaryArchiveError) {
        let slots = try reader.readPlainArray((key: UInt64, value: Int32).self)
        let count = try reader.readInt()
        guard slots.count.nonzeroBitCount == 1, count >= 0, count < slots.count else {
            throw BinaryArchiveError(reason: "a stored fingerprint map of \(count) in \(slots.count) slots")
        }
        self.init()
        self.slots = slots
        self.count = count
    }
}
