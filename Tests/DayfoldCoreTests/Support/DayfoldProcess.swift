import Foundation

/// Runs the real `dayfold` binary, as a user would.
struct DayfoldProcess {
    var status: Int32
    var stdout: String
    var stderr: String

    static func run(_ arguments: [String], currentDirectory: URL? = nil) throws -> DayfoldProcess {
        let process = Process()
        process.executableURL = TestPaths.binary
        process.arguments = arguments
        if let currentDirectory { process.currentDirectoryURL = currentDirectory }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Read before waiting so a large output cannot block the child.
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return DayfoldProcess(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self))
    }
}
