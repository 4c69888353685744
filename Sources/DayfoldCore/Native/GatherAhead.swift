/// Walks of a large array in an order of the caller's (rows sorted for
/// output, elements in file order): each visit would wait on a cache miss,
/// so the walk requests the elements it will visit a few visits ahead
/// (`prefetchElement`) and the CPU overlaps the misses. The caller says
/// what it visits; how far ahead to load is decided here.
extension Array {
    /// How many visits ahead an element is requested.
    private static var gatherDistance: Int { 16 }

    /// Calls `body` with `self[index]` for each index of `order`, in order.
    @inline(__always)
    func forEach(at order: some RandomAccessCollection<Int>, _ body: (Element) -> Void) {
        let ahead = Self.gatherDistance
        var position = order.startIndex
        var lookahead = order.index(position, offsetBy: ahead, limitedBy: order.endIndex) ?? order.endIndex
        while position != order.endIndex {
            if lookahead != order.endIndex {
                prefetchElement(self, order[lookahead])
                order.formIndex(after: &lookahead)
            }
            body(self[order[position]])
            order.formIndex(after: &position)
        }
    }

    /// Calls `body` with `self[index]` and its string `strings[key(element)]`
    /// for each index of `order`, in order. Three dependent loads a visit
    /// (the element, the string's offsets, the string's bytes), each
    /// requested some visits before it is needed: the element 16 ahead,
    /// the offsets 8 ahead, the bytes 4 ahead.
    @inline(__always)
    func forEach(
        at order: [Int], string key: (Element) -> Int32, of strings: ByteStrings,
        _ body: (Element, Span<UInt8>) -> Void
    ) {
        let ahead = Self.gatherDistance
        for (position, index) in order.enumerated() {
            if position + ahead < order.count { prefetchElement(self, order[position + ahead]) }
            if position + ahead / 2 < order.count { strings.prefetchOffsets(key(self[order[position + ahead / 2]])) }
            if position + ahead / 4 < order.count { strings.prefetchBytes(key(self[order[position + ahead / 4]])) }
            let element = self[index]
            strings.withString(key(element)) { body(element, $0) }
        }
    }
}
