import Dispatch
import Foundation

/// Runs independent jobs on all cores and returns their results in job
/// order, so outputs stay deterministic; when jobs fail, the error of the
/// first failing job in job order is thrown (not the first in time).
/// Each job reads shared state only or writes state no other job touches.
final class ParallelJobs<Result>: @unchecked Sendable {
    private let jobs: [() throws -> Result]
    private var results: [Result?]
    private var errors: [(any Error)?]
    private let lock = NSLock()

    init(_ jobs: [() throws -> Result]) {
        self.jobs = jobs
        results = Array(repeating: nil, count: jobs.count)
        errors = Array(repeating: nil, count: jobs.count)
    }

    func run() throws -> [Result] {
        DispatchQueue.concurrentPerform(iterations: jobs.count) { index in
            do {
                let value = try jobs[index]()
                lock.lock()
                results[index] = value
                lock.unlock()
            } catch {
                lock.lock()
                errors[index] = error
                lock.unlock()
            }
        }
        if let error = errors.lazy.compactMap({ $0 }).first { throw error }
        return results.compactMap { $0 }
    }
}
