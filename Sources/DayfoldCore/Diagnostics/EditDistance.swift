/// Levenshtein distance (insertions, deletions, substitutions): how far a
/// mistyped name is from a known one, for the "did you mean" hints of
/// column names and of the command line (SPEC §10).
public enum EditDistance {
    /// The distance between two sequences (bytes, scalars).
    public static func between<Element: Equatable>(_ left: [Element], _ right: [Element]) -> Int {
        guard !left.isEmpty else { return right.count }
        guard !right.isEmpty else { return left.count }
        var previous = Array(0...right.count)
        var current = previous
        for (leftIndex, leftElement) in left.enumerated() {
            current[0] = leftIndex + 1
            for (rightIndex, rightElement) in right.enumerated() {
                let substitution = previous[rightIndex] + (leftElement == rightElement ? 0 : 1)
                current[rightIndex + 1] = min(substitution, previous[rightIndex + 1] + 1, current[rightIndex] + 1)
            }
            swap(&previous, &current)
        }
        return previous[right.count]
    }
}
