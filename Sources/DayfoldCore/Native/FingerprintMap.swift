/// An open-addressing map from 64-bit fingerprints to small integers:
/// 12 bytes a slot, no per-entry allocation (the partition planner keeps one
/// entry per id of a drop).
struct FingerprintMap {
    private var keys: [UInt64] = Array(repeating: 0, count: 1024)
    private var values: [Int32] = Array(repeating: 0, count: 1024)
    private(set) var count = 0

    subscript(key: UInt64) -> Int32? {
        get {
            let mask = keys.count - 1
            var index = Int(truncatingIfNeeded: key) & mask
            while true {
                let slot = keys[index]
                if slot == 0 { return nil }
                if slot == key { return values[index] }
                index = (index + 1) & mask
            }
        }
        set {
            guard let newValue else { return }
            if (count + 1) * 10 > keys.count * 7 { grow() }
            let mask = keys.count - 1
            var index = Int(truncatingIfNeeded: key) & mask
            while keys[index] != 0 && keys[index] != key { index = (index + 1) & mask }
            if keys[index] == 0 { count += 1 }
            keys[index] = key
            values[index] = newValue
        }
    }

    /// The dense index of `key` (0, 1, 2… in order of first sight), adding it
    /// when new. Use either this or the subscript setter on one map, not both.
    mutating func intern(_ key: UInt64) -> (index: Int32, isNew: Bool) {
        if let index = self[key] { return (index, false) }
        let index = Int32(count)
        self[key] = index
        return (index, true)
    }

    private mutating func grow() {
        let oldKeys = keys
        let oldValues = values
        keys = Array(repeating: 0, count: oldKeys.count * 2)
        values = Array(repeating: 0, count: oldKeys.count * 2)
        count = 0
        for (index, key) in oldKeys.enumerated() where key != 0 { self[key] = oldValues[index] }
    }
}
