import Foundation
import Testing

@testable import DayfoldCore

@Suite struct ParallelJobsTests {
    struct JobFailed: Error, Equatable {
        var job: Int
    }

    @Test func resultsComeBackInJobOrder() throws {
        let jobs = ParallelJobs<Int>(
            (0..<8).map { index in
                {
                    usleep(UInt32((8 - index) * 2_000))
                    return index * 10
                }
            })
        #expect(try jobs.run() == [0, 10, 20, 30, 40, 50, 60, 70])
    }

    /// The first failing job in job order wins, even when a later job fails first in time:
    /// a run that fails in two places reports the same error every time.
    @Test func theFirstFailingJobInOrderIsReported() {
        let jobs = ParallelJobs<Int>([
            {
                usleep(50_000)
                throw JobFailed(job: 0)
            },
            { throw JobFailed(job: 1) },
        ])
        #expect(throws: JobFailed(job: 0)) { try jobs.run() }
    }
}
