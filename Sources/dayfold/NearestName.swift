import DayfoldCore

/// "Did you mean …?" for a mistyped command or option (SPEC §10): the
/// known name nearest to what was typed, when it is near enough to be the
/// likely intent (edit distance ≤ 2, or the typed text begins it).
enum NearestName {
    /// The candidate nearest `typed`, or nil when none is close.
    static func suggestion(for typed: String, among candidates: [String]) -> String? {
        let typedBytes = Array(typed.utf8)
        var best: (name: String, distance: Int)?
        for candidate in candidates.sorted() {
            let distance = EditDistance.between(typedBytes, Array(candidate.utf8))
            if distance < (best?.distance ?? Int.max) { best = (candidate, distance) }
        }
        guard let best else { return nil }
        if best.distance <= 2 && best.distance < typedBytes.count { return best.name }
        // "--out" for "--output": a unique, long enough beginning.
        let stem = typed.drop { $0 == "-" }
        let started = candidates.filter { $0.hasPrefix(typed) }
        return stem.count >= 2 && started.count == 1 ? started.first : nil
    }
}
