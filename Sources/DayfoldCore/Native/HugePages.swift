import CSystem
import Synchronization

/// Large tables probed at random (id hash tables) on 2 MB pages, in runs
/// that probe them long enough to repay it (`advising`).
///
/// Why: on this kind of machine (a VM under shadow paging) a TLB miss is
/// dear, and a table of tens of MB probed at random misses the TLB on
/// nearly every probe with 4 KB pages. Only such tables are
/// advised: a fresh 2 MB page costs the kernel more to clear than 512 small
/// ones, so advising all memory (glibc's `hugetlb` tunable) lost in system
/// time what it won in user time.
enum HugePages {
    /// Tables smaller than this stay on small pages (the TLB covers them well enough).
    static let threshold = 4 << 20

    /// Whether large tables are advised at all (a hint for the whole
    /// process; results never depend on it). Off by default: where the host
    /// takes freed memory back in large blocks (this VM reports free 8 MB
    /// blocks to its host), a fresh 2 MB page costs 2–3 ms per MB to touch
    /// first against about 0.6 for small pages, more than a run that reads
    /// its drop once wins on the TLB (a whole run: 0.83–0.98× wall without
    /// the advice over four sets of 5 pairs). An as-of series reads its
    /// tables at every step and turns it on (without it: 1.02–1.10× wall).
    static let advising = Atomic<Bool>(false)

    /// An array of `count` copies of `value` whose storage is advised to
    /// use huge pages before it is first written (when it is large enough).
    static func array<Element>(
        repeating value: Element, count: Int, advise: Bool = HugePages.advising.load(ordering: .relaxed)
    ) -> [Element] {
        guard advise, count * MemoryLayout<Element>.stride >= threshold else {
            return Array(repeating: value, count: count)
        }
        return [Element](unsafeUninitializedCapacity: count) { buffer, initialized in
            if let base = buffer.baseAddress {
                _ = dayfold_advise_huge_pages(UnsafeMutableRawPointer(base), count * MemoryLayout<Element>.stride)
            }
            buffer.initialize(repeating: value)
            initialized = count
        }
    }

    /// Reserves room for `capacity` elements and advises that room (when
    /// large enough) before it is written: for tables that grow by appending
    /// and are then read at random.
    static func reserve<Element>(
        _ array: inout [Element], _ capacity: Int, advise: Bool = HugePages.advising.load(ordering: .relaxed)
    ) {
        array.reserveCapacity(capacity)
        let bytes = array.capacity * MemoryLayout<Element>.stride
        guard advise, bytes >= threshold else { return }
        array.withUnsafeMutableBufferPointer { buffer in
            if let base = buffer.baseAddress { _ = dayfold_advise_huge_pages(UnsafeMutableRawPointer(base), bytes) }
        }
    }
}

/// What domain code asks for: arrays it will visit at random (dense indexes
/// by id, the task table events look up). How they are backed (large ones on
/// huge pages, see `HugePages`) is decided here, not there.
extension Array {
    /// `count` copies of `value`, for reading and writing at random.
    init(randomAccessRepeating value: Element, count: Int) {
        self = HugePages.array(repeating: value, count: count)
    }

    /// Room for `capacity` elements, appended now and read at random later.
    mutating func reserveForRandomAccess(_ capacity: Int) { HugePages.reserve(&self, capacity) }
}
