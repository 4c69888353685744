import Dispatch
import Foundation

/// Runs independent jobs (each writes its own output file) on all cores and
/// returns their results in job order, so outputs stay deterministic.
/// The jobs read only immutable run results.
final class ParallelJobs<Result>: @unchecked Sendable {
    private let jobs: [() throws -> Result]
    private var results: [Result?]
    private var firstError: (any Error)?
    private let lock = NSLock()

    init(_ jobs: [() throws -> Result]) {
        self.jobs = jobs
        results = Array(repeating: nil, count: jobs.count)
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
                if firstError == nil { firstError = error }
                lock.unlock()
            }
        }
        if let firstError { throw firstError }
        return results.compactMap { $0 }
    }
}
