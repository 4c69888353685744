import Foundation
import Synchronization

/// Runs the real `dayfold` binary with a time limit: a run that has not
/// ended when the limit passes is killed and reported as a hang, and a run
/// ended by a signal (a trap, an abort) is told apart from one that exited.
struct BoundedProcess {
    var status: Int32
    var stdout: String
    var stderr: String
    /// Ended by a signal (`status` is then the signal's number).
    var signaled: Bool
    /// Killed by the time limit.
    var timedOut: Bool

    /// `executable`: dayfold unless another program is given (the browser script).
    static func run(
        _ arguments: [String], limit: TimeInterval, executable: URL = TestPaths.binary
    ) throws -> BoundedProcess {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let killed = Mutex(false)
        let pid = process.processIdentifier
        let watchdog = DispatchWorkItem {
            killed.withLock { $0 = true }
            kill(pid, SIGKILL)
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + limit, execute: watchdog)
        // Both pipes are drained at once so a large output on either cannot block the child.
        let errData = Mutex(Data())
        let errDone = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            let data = err.fileHandleForReading.readDataToEndOfFile()
            errData.withLock { $0 = data }
            errDone.signal()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        errDone.wait()
        process.waitUntilExit()
        watchdog.cancel()
        return BoundedProcess(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: errData.withLock { String(decoding: $0, as: UTF8.self) },
            signaled: process.terminationReason == .uncaughtSignal, timedOut: killed.withLock { $0 })
    }
}
