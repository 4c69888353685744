/// A deterministic 64-bit fingerprint of a row's key fields. Dedup sets keep
/// 8 bytes per row instead of the key text, which is what lets a file larger
/// than memory stream through. Two different keys share a fingerprint with
/// probability about n²/2⁶⁵ for n keys (under 10⁻⁶ for 5 million rows).
struct Fingerprint {
    private(set) var state: UInt64 = 0x243F_6A88_85A3_08D3

    private mutating func mix(_ word: UInt64) {
        state = (state ^ word) &* 0x9E37_79B9_7F4A_7C15
        state ^= state >> 31
        state = state &* 0xBF58_476D_1CE4_E5B9
    }

    mutating func combine(_ value: UInt64) { mix(value) }
    mutating func combine(_ value: Int64) { mix(UInt64(bitPattern: value)) }

    /// Bytes, length-prefixed so ("ab","c") and ("a","bc") differ.
    mutating func combine(_ bytes: ArraySlice<UInt8>?) {
        guard let bytes else {
            mix(0xFFFF_FFFF_FFFF_FFFF)
            return
        }
        mix(UInt64(bytes.count))
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset + 8 <= raw.count {
                mix(raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                offset += 8
            }
            var tail: UInt64 = 0
            var shift: UInt64 = 0
            while offset < raw.count {
                tail |= UInt64(raw[offset]) << shift
                shift += 8
                offset += 1
            }
            mix(tail)
        }
    }

    var value: UInt64 {
        var h = state
        h ^= h >> 33
        h = h &* 0xFF51_AFD7_ED55_8CCD
        h ^= h >> 33
        h = h &* 0xC4CE_B9FE_1A85_EC53
        h ^= h >> 33
        return h == 0 ? 1 : h
    }
}

/// An open-addressing set of fingerprints: 8 bytes a slot, no per-entry allocation.
struct FingerprintSet {
    private(set) var slots: [UInt64] = Array(repeating: 0, count: 1024)
    private(set) var count = 0

    /// Inserts; returns false when the fingerprint was already present.
    mutating func insert(_ value: UInt64) -> Bool {
        if (count + 1) * 10 > slots.count * 7 { grow() }
        let mask = slots.count - 1
        var index = Int(truncatingIfNeeded: value) & mask
        while true {
            let slot = slots[index]
            if slot == 0 {
                slots[index] = value
                count += 1
                return true
            }
            if slot == value { return false }
            index = (index + 1) & mask
        }
    }

    func contains(_ value: UInt64) -> Bool {
        let mask = slots.count - 1
        var index = Int(truncatingIfNeeded: value) & mask
        while true {
            let slot = slots[index]
            if slot == 0 { return false }
            if slot == value { return true }
            index = (index + 1) & mask
        }
    }

    /// Removes (used to take back what a failed import claimed).
    mutating func remove(_ value: UInt64) {
        // Rebuild without the value: removal is rare (failed imports only).
        guard contains(value) else { return }
        let old = slots
        slots = Array(repeating: 0, count: old.count)
        count = 0
        for slot in old where slot != 0 && slot != value { _ = insert(slot) }
    }

    /// Sizes the set for about `values` values up front (no regrowth on the way there).
    mutating func reserve(_ values: Int) {
        var size = slots.count
        while values * 10 > size * 7 { size *= 2 }
        if size > slots.count { rehash(size) }
    }

    private mutating func grow() { rehash(slots.count * 2) }

    private mutating func rehash(_ size: Int) {
        let old = slots
        slots = Array(repeating: 0, count: size)
        count = 0
        for slot in old where slot != 0 { _ = insert(slot) }
    }
}
