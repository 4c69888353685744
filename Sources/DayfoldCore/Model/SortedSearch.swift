extension RandomAccessCollection where Index == Int {
    /// In a collection whose elements for which `isBefore` holds all come
    /// first (sorted data and a bound): the index of the first element for
    /// which it does not, by binary search.
    func partitionPoint(where isBefore: (Element) -> Bool) -> Int {
        var (low, high) = (startIndex, endIndex)
        while low < high {
            let middle = low + (high - low) / 2
            if isBefore(self[middle]) { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
