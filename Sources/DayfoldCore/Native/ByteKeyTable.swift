import Foundation

/// Interns byte strings to dense indexes: keys live back to back in one
/// arena and the table holds only hashes and indexes, so a lookup hashes
/// 8 bytes at a time and allocates nothing (Swift's Dictionary would hash a
/// byte slice one byte at a time through `Hasher`).
struct ByteKeyTable {
    private var arena: [UInt8] = []
    private var offsets: [Int] = [0]
    private var hashes: [UInt64] = []
    /// Slot → the key's hash in the high 32 bits and its index + 1 in the low
    /// 32 (0 = empty): a probe rules out other keys without touching `hashes`,
    /// `offsets` or the arena, which on tables of millions of ids is a cache
    /// miss each.
    private(set) var slots: [UInt64] = Array(repeating: 0, count: 256)

    var count: Int { hashes.count }

    static func hash(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        bytes.withUnsafeBufferPointer(hash)
    }

    static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var fingerprint = Fingerprint()
        fingerprint.combine(bytes)
        return fingerprint.value
    }

    /// `hash` of the field `bytes[field]` (read in place).
    static func hash(_ bytes: [UInt8], field: Range<Int>) -> UInt64 {
        bytes.withUnsafeBufferPointer { hash(UnsafeBufferPointer(rebasing: $0[field])) }
    }

    /// Every key, by index, as one `ByteStrings` (sharing the table's storage).
    var keys: ByteStrings { ByteStrings(bytes: arena, offsets: offsets) }

    /// The key's bytes.
    func key(_ index: Int32) -> ArraySlice<UInt8> { arena[offsets[Int(index)]..<offsets[Int(index) + 1]] }

    /// Calls `body` with key `index`'s bytes in place (no slice per key; see
    /// `ByteStrings.withString`).
    func withKey<Result>(_ index: Int32, _ body: (Span<UInt8>) -> Result) -> Result {
        body(arena.span.extracting(offsets[Int(index)]..<offsets[Int(index) + 1]))
    }

    @inline(__always) private static func tag(_ hash: UInt64) -> UInt64 { hash & 0xFFFF_FFFF_0000_0000 }

    private func equals(_ index: Int, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let start = offsets[index]
        let length = offsets[index + 1] - start
        guard length == bytes.count else { return false }
        return arena.withUnsafeBufferPointer { stored in
            guard let left = stored.baseAddress, let right = bytes.baseAddress else { return length == 0 }
            return memcmp(left + start, right, length) == 0
        }
    }

    /// The slot holding `bytes`, or the empty slot where it would go.
    @inline(__always) private func probe(_ bytes: UnsafeBufferPointer<UInt8>, _ hash: UInt64) -> (
        slot: Int, found: Int32?
    ) {
        let mask = slots.count - 1
        let tag = Self.tag(hash)
        var slot = Int(truncatingIfNeeded: hash) & mask
        while true {
            let entry = slots[slot]
            if entry == 0 { return (slot, nil) }
            let index = Int(truncatingIfNeeded: entry & 0xFFFF_FFFF) - 1
            if entry & 0xFFFF_FFFF_0000_0000 == tag && equals(index, bytes) {
                return (slot, Int32(index))
            }
            slot = (slot + 1) & mask
        }
    }

    /// Sizes the table for about `keys` keys up front: no regrowth on the way
    /// there (each regrowth re-inserts every key, a cache miss each).
    mutating func reserve(_ keys: Int) {
        var size = slots.count
        while keys * 10 > size * 7 { size *= 2 }
        guard size > slots.count else { return }
        hashes.reserveCapacity(keys)
        // Offsets and arena are read at random (each probe that matches a tag).
        HugePages.reserve(&offsets, keys + 1)
        // Keys of up to 64 bytes without regrowing the arena (untouched room costs no memory).
        HugePages.reserve(&arena, keys * 64)
        rehash(size)
    }

    private mutating func rehash(_ size: Int) {
        slots = HugePages.array(repeating: 0, count: size)
        let mask = slots.count - 1
        for (existing, existingHash) in hashes.enumerated() {
            var position = Int(truncatingIfNeeded: existingHash) & mask
            while slots[position] != 0 { position = (position + 1) & mask }
            slots[position] = Self.tag(existingHash) | UInt64(existing + 1)
        }
    }

    /// The index of `bytes`, or nil when it was never interned. `hash`, when
    /// given, is `ByteKeyTable.hash(bytes)` taken earlier (on another thread).
    func find(_ bytes: ArraySlice<UInt8>, hash: UInt64? = nil) -> Int32? {
        bytes.withUnsafeBufferPointer { find($0, hash: hash) }
    }

    /// As `find(_:hash:)`, for bytes read in place (a field, `CSVRecord.withField`).
    func find(_ bytes: Span<UInt8>, hash: UInt64? = nil) -> Int32? {
        bytes.withUnsafeBufferPointer { find($0, hash: hash) }
    }

    /// As `find(_:hash:)`, for bytes seen through a pointer (a field read in place).
    func find(_ bytes: UnsafeBufferPointer<UInt8>, hash: UInt64? = nil) -> Int32? {
        probe(bytes, hash ?? ByteKeyTable.hash(bytes)).found
    }

    /// `find` of the field `bytes[field]` (read in place).
    func find(_ bytes: [UInt8], field: Range<Int>, hash: UInt64? = nil) -> Int32? {
        bytes.withUnsafeBufferPointer { find(UnsafeBufferPointer(rebasing: $0[field]), hash: hash) }
    }

    /// `intern` of the field `bytes[field]` (read in place).
    mutating func intern(_ bytes: [UInt8], field: Range<Int>, hash known: UInt64? = nil) -> (
        index: Int32, isNew: Bool
    ) {
        bytes.withUnsafeBufferPointer { intern(UnsafeBufferPointer(rebasing: $0[field]), hash: known) }
    }

    /// As `intern(_:hash:)`, for bytes read in place (a field, `CSVRecord.withField`).
    mutating func intern(_ bytes: Span<UInt8>, hash known: UInt64? = nil) -> (index: Int32, isNew: Bool) {
        bytes.withUnsafeBufferPointer { intern($0, hash: known) }
    }

    /// The index of `bytes`, adding it when new; `isNew` says which.
    mutating func intern(_ bytes: ArraySlice<UInt8>, hash known: UInt64? = nil) -> (index: Int32, isNew: Bool) {
        bytes.withUnsafeBufferPointer { intern($0, hash: known) }
    }

    /// As `intern(_:hash:)`, for bytes seen through a pointer (a field read in place).
    mutating func intern(_ bytes: UnsafeBufferPointer<UInt8>, hash known: UInt64? = nil) -> (
        index: Int32, isNew: Bool
    ) {
        let hash = known ?? ByteKeyTable.hash(bytes)
        let (slot, found) = probe(bytes, hash)
        if let found { return (found, false) }
        let index = hashes.count
        arena.append(contentsOf: bytes)
        offsets.append(arena.count)
        hashes.append(hash)
        if (index + 1) * 10 > slots.count * 7 {
            rehash(slots.count * 2)
        } else {
            slots[slot] = Self.tag(hash) | UInt64(index + 1)
        }
        return (Int32(index), true)
    }
}

extension ByteKeyTable {
    /// Writes the table as it lies (keys, offsets, hashes and slots), for a
    /// kept reading (`ReadingTables`): read back, no key is hashed again.
    func archive(into out: inout BinaryArchiveWriter) throws(SystemCallError) {
        try out.write(plain: arena)
        try out.write(plain: offsets)
        try archiveIndex(into: &out)
    }

    /// The table `archive(into:)` wrote. Throws when its shape is not a
    /// table's (offsets that do not cut the arena, `ByteStrings(validating:)`,
    /// or see `init(keys:index:)`).
    init(from reader: inout BinaryArchiveReader) throws(BinaryArchiveError) {
        let arena = try reader.readPlainArray(UInt8.self)
        let offsets = try reader.readPlainArray(Int.self)
        guard let keys = ByteStrings(validating: arena, offsets: offsets) else {
            throw BinaryArchiveError(reason: "a stored key table whose offsets do not cut its \(arena.count) bytes")
        }
        try self.init(keys: keys, index: Index(from: &reader))
    }

    /// Writes the table's hashes and slots only: for a table whose keys
    /// are kept elsewhere (a reading's task ids, kept with its rows), read
    /// back by `Index(from:)` and joined to them by `init(keys:index:)`.
    func archiveIndex(into out: inout BinaryArchiveWriter) throws(SystemCallError) {
        try out.write(plain: hashes)
        try out.write(plain: slots)
    }

    /// A table's hashes and slots without its keys (`archiveIndex`).
    struct Index: Sendable {
        fileprivate var hashes: [UInt64]
        fileprivate var slots: [UInt64]

        init(from reader: inout BinaryArchiveReader) throws(BinaryArchiveError) {
            hashes = try reader.readPlainArray(UInt64.self)
            slots = try reader.readPlainArray(UInt64.self)
        }
    }

    /// The table whose keys are `keys` and whose index `archiveIndex`
    /// wrote (the same keys in the same order). Throws when the shapes
    /// disagree (a hash per key; a slot count not a power of two, or no
    /// free slot: a probe would never end).
    init(keys: ByteStrings, index: Index) throws(BinaryArchiveError) {
        let (arena, offsets) = keys.storage
        guard offsets.count == index.hashes.count + 1, index.slots.count.nonzeroBitCount == 1,
            index.hashes.count < index.slots.count
        else {
            throw BinaryArchiveError(reason: "a stored key index of \(index.hashes.count) keys for \(keys.count) keys")
        }
        self.init()
        self.arena = arena
        self.offsets = offsets
        self.hashes = index.hashes
        self.slots = index.slots
    }
}
