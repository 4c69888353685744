/// A value that a reading loop's body and its look-ahead closure share.
///
/// Both run on the reading thread, one after the other and never
/// overlapping. A captured `var` is boxed once an escaping closure holds it,
/// and every access to a box (as to a class's stored property) is then
/// checked for exclusivity at run time, through `swift_beginAccess`: on the
/// ingest loops that cost about 4 % of a run's CPU and bought nothing. This
/// class keeps the run-time check off for this one value; the compiler's
/// static checks stay, and so does the check everywhere else (dayfold builds
/// without `-enforce-exclusivity=unchecked`).
final class LoopState<Value> {
    @exclusivity(unchecked) var value: Value

    init(_ value: Value) { self.value = value }
}
