import Foundation

/// A run's `--state`: its folder and what the run found there.
struct StateContext: Sendable {
    var directory: StateDirectory
    var loaded: StateDirectory.Loaded

    /// The state the run may use, if any.
    var usable: RunState? {
        if case .usable(let state) = loaded { return state }
        return nil
    }

    /// The manifest's `mode`, `reason` and `recomputed_users` of a run that
    /// recomputed `recomputedUsers` users: `reused` says what of the
    /// previous run's computation was reused (nil: nothing, a full run;
    /// `fullBecause` is why, when the state itself was usable).
    func use(
        recomputedUsers: Int, digestsFromState: Set<String>, reused: String? = nil,
        fullBecause: String = "the drop is read whole, so every user is recomputed "
            + "(runs under max_memory reuse the partitions whose inputs and as-of are unchanged)"
    ) -> Manifest.StateUse {
        let digests = digestsFromState.isEmpty ? "" : "; \(digestsFromState.count) input digests came from the state"
        switch loaded {
        case .doubted(let reason):
            return Manifest.StateUse(
                mode: .full, reason: reason, recomputedUsers: recomputedUsers, digestsFromState: digestsFromState)
        case .usable:
            if let reused {
                return Manifest.StateUse(
                    mode: .incremental, reason: reused + digests, recomputedUsers: recomputedUsers,
                    digestsFromState: digestsFromState)
            }
            return Manifest.StateUse(
                mode: .full, reason: fullBecause + digests, recomputedUsers: recomputedUsers,
                digestsFromState: digestsFromState)
        }
    }
}
