/// A position per index in `first ..< first + count` (-1 for none): the
/// last row of each id or key that a reading's new rows hold, when ingest
/// deduplicates them (last wins). A whole reading's window starts at 0; a
/// resumed reading's new ids and keys all follow the kept ones (a new row
/// naming a kept one makes it read the drop whole, `ResumeRefusal`), so
/// its window leaves the kept ones out: an array over them too cost a
/// night on the 1.1 GB drop 16 MB of fresh memory.
struct IndexWindow {
    private let first: Int
    private var positions: [Int]

    init(first: Int, count: Int) {
        self.first = first
        positions = [Int](randomAccessRepeating: -1, count: max(count, 0))
    }

    /// The position of `index`'s last row (-1: none yet). `index` is in the window.
    subscript(index: Int) -> Int {
        get { positions[index - first] }
        set { positions[index - first] = newValue }
    }
}
