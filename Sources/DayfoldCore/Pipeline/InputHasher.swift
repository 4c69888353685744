import Foundation

/// Hashes the input files for the manifest on a thread of its own, while the
/// run goes on: a run's compute stage and the tail of its merges use one
/// core, and hashing a 1 GB drop takes about a second of the other.
final class InputHasher: @unchecked Sendable {
    private var hashes: [String] = []
    private let done = DispatchSemaphore(value: 0)

    /// Starts hashing `paths` (absolute); an unreadable file hashes to "".
    init(paths: [String]) {
        let thread = Thread {
            self.hashes = paths.map { (try? SHA256Hasher.hex(file: $0)) ?? "" }
            self.done.signal()
        }
        thread.start()
    }

    /// The hashes, in the order of `paths` (waits for them once).
    func results() -> [String] {
        done.wait()
        return hashes
    }
}
