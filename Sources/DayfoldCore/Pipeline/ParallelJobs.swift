import Dispatch
import Synchronization

/// Runs independent jobs on all cores and returns their results in job
/// order, so outputs stay deterministic; when jobs fail, the error of the
/// first failing job in job order is thrown (not the first in time).
/// Jobs are `@Sendable`: the compiler checks that they share only what is
/// safe to share (immutable values, locked state).
struct ParallelJobs<Output: Sendable>: Sendable {
    private let jobs: [@Sendable () throws -> Output]

    init(_ jobs: [@Sendable () throws -> Output]) {
        self.jobs = jobs
    }

    /// `oneAtATime`: in job order on the calling thread (a memory budget
    /// that two jobs' buffers would exceed), with the same results and errors.
    func run(oneAtATime: Bool = false) throws -> [Output] {
        let jobs = jobs
        if oneAtATime { return try jobs.map { try $0() } }
        let outcomes = Mutex([Result<Output, any Error>?](repeating: nil, count: jobs.count))
        DispatchQueue.concurrentPerform(iterations: jobs.count) { index in
            let outcome = Result { try jobs[index]() }
            outcomes.withLock { $0[index] = outcome }
        }
        return try outcomes.withLock { $0 }.map { outcome in
            guard let outcome else { preconditionFailure("a parallel job did not finish") }
            return try outcome.get()
        }
    }
}
