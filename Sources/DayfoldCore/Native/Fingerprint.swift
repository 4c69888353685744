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

    /// Bytes, length-prefixed so ("ab","c") and ("a","bc") differ. Ids are
    /// hashed a few times per row, so the words go through two independent
    /// chains (a multiply and a rotation per word: each step a bijection of
    /// its chain's state, so no word is lost) that the CPU runs side by side;
    /// `value`'s finaliser mixes the result. Half the latency of one chain
    /// of `mix` steps on a 36-byte id.
    mutating func combine(_ bytes: ArraySlice<UInt8>?) {
        guard let bytes else {
            mix(0xFFFF_FFFF_FFFF_FFFF)
            return
        }
        bytes.withUnsafeBufferPointer { combine($0) }
    }

    /// `combine` of the field `bytes[field]` (read in place); nil is NULL,
    /// as a nil slice is.
    mutating func combine(_ bytes: [UInt8], field: Range<Int>?) {
        guard let field else {
            mix(0xFFFF_FFFF_FFFF_FFFF)
            return
        }
        bytes.withUnsafeBufferPointer { combine(UnsafeBufferPointer(rebasing: $0[field])) }
    }

    /// As `combine(_: ArraySlice<UInt8>?)`, for a string's UTF-8 bytes, read
    /// in place (no array made of them: names are combined once per row).
    mutating func combine(_ text: String?) {
        guard var text else {
            mix(0xFFFF_FFFF_FFFF_FFFF)
            return
        }
        let done: Void? = text.utf8.withContiguousStorageIfAvailable { combine($0) }
        if done == nil {
            text.makeContiguousUTF8()
            text.utf8.withContiguousStorageIfAvailable { combine($0) }
        }
    }

    /// As `combine(_: ArraySlice<UInt8>?)`, for bytes lent as a span (an
    /// interned id read in place, `ByteStrings.withString`).
    mutating func combine(_ bytes: Span<UInt8>) {
        bytes.withUnsafeBufferPointer { combine($0) }
    }

    /// As `combine(_: ArraySlice<UInt8>?)`, for bytes seen through a pointer
    /// (a field read in place, with no reference to retain).
    mutating func combine(_ bytes: UnsafeBufferPointer<UInt8>?) {
        guard let bytes else {
            mix(0xFFFF_FFFF_FFFF_FFFF)
            return
        }
        let count = bytes.count
        let raw = UnsafeRawBufferPointer(bytes)
        let (left, right) = Self.chains(
            raw, state ^ UInt64(count), (state &+ 0x6A09_E667_F3BC_C909) ^ UInt64(count))
        // The left chain is mixed whole before the right one joins it: joined
        // by a bare xor, the same change in the same bit of both chains'
        // words cancelled out (two-byte changes collided).
        state = left
        mix(0)
        mix(right)
    }

    /// The two chains over `raw`'s words.
    private static func chains(_ raw: UnsafeRawBufferPointer, _ leftSeed: UInt64, _ rightSeed: UInt64) -> (
        UInt64, UInt64
    ) {
        let count = raw.count
        var left = leftSeed
        var right = rightSeed
        var offset = 0
        while offset + 16 <= count {
            left = leftStep(left, raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            right = rightStep(right, raw.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self))
            offset += 16
        }
        if offset + 8 <= count {
            left = leftStep(left, raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            offset += 8
        }
        // The last 0–7 bytes, read in at most two loads: with the length
        // already in both chains, overlapping reads still tell every
        // string of that length apart.
        let rest = count - offset
        var tail: UInt64 = 0
        if rest == 0 {
            tail = 0
        } else if count >= 8 {
            tail = raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
        } else if rest >= 4 {
            let low = UInt64(raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
            let high = UInt64(raw.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self))
            tail = low | high << 32
        } else {
            tail = UInt64(raw[offset]) | UInt64(raw[offset + rest / 2]) << 8 | UInt64(raw[count - 1]) << 16
        }
        return (left, rightStep(right, tail))
    }

    /// One word into a chain: xor, multiply by an odd constant, rotate (each
    /// chain its own constant and rotation).
    @inline(__always) private static func leftStep(_ chain: UInt64, _ word: UInt64) -> UInt64 {
        let product = (chain ^ word) &* 0x9E37_79B9_7F4A_7C15
        return (product << 29) | (product >> 35)
    }

    @inline(__always) private static func rightStep(_ chain: UInt64, _ word: UInt64) -> UInt64 {
        let product = (chain ^ word) &* 0xC2B2_AE3D_27D4_EB4F
        return (product << 23) | (product >> 41)
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

    /// Inserts `values` in order, telling `inserted` for each (by position)
    /// whether it was new. For runs of keys whose slots are far apart in a
    /// set too large for the cache: each slot is loaded a few keys ahead of
    /// its probe, so the misses overlap instead of following one another.
    mutating func insertInOrder(_ values: [UInt64], _ inserted: (Int, Bool) -> Void) {
        let ahead = 8
        for index in values.indices {
            if index + ahead < values.count { expectLookup(values[index + ahead]) }
            inserted(index, insert(values[index]))
        }
    }

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
        slots = HugePages.array(repeating: 0, count: size)
        count = 0
        for slot in old where slot != 0 { _ = insert(slot) }
    }
}

extension FingerprintSet {
    /// Writes the set as it lies (its slots and count), for a kept reading
    /// (`ReadingTables`): read back, it needs no insert.
    func archive(into out: inout BinaryArchiveWriter) throws(SystemCallError) {
        try out.write(plain: slots)
        out.write(count)
    }

    /// The set `archive(into:)` wrote. Throws when its shape is not a
    /// set's (a slot count not a power of two, or no free slot: a probe
    /// would never end).
    init(from reader: inout BinaryArchiveReader) throws(BinaryArchiveError) {
        let slots = try reader.readPlainArray(UInt64.self)
        let count = try reader.readInt()
        guard slots.count.nonzeroBitCount == 1, count >= 0, count < slots.count else {
            throw BinaryArchiveError(reason: "a stored fingerprint set of \(count) in \(slots.count) slots")
        }
        self.init()
        self.slots = slots
        self.count = count
    }
}
