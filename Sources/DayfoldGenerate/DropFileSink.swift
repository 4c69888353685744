import DayfoldCore
import Foundation

/// Where a part file's bytes go: straight to disk, or through zstd.
protocol DropFileSink: AnyObject {
    func write(_ bytes: [UInt8]) throws
    /// Flushes and closes the file; returns its size on disk.
    func finish() throws -> Int64
}

/// Writes bytes to a plain file, in the ~1 MB blocks the row buffers hand over.
final class PlainFileSink: DropFileSink {
    private let handle: FileHandle
    private let path: String
    private var written: Int64 = 0

    init(path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil),
            let handle = FileHandle(forWritingAtPath: path)
        else {
            throw DayfoldError(.output, "cannot create \(path)", fix: "check that the output folder is writable")
        }
        self.handle = handle
        self.path = path
    }

    func write(_ bytes: [UInt8]) throws {
        do {
            try handle.write(contentsOf: Data(bytes))
        } catch {
            throw DayfoldError(.output, "cannot write \(path): \(error)")
        }
        written += Int64(bytes.count)
    }

    func finish() throws -> Int64 {
        do {
            try handle.close()
        } catch {
            throw DayfoldError(.output, "cannot close \(path): \(error)")
        }
        return written
    }
}

extension ZstdWriter: DropFileSink {
    func finish() throws -> Int64 {
        try close()
        return compressedBytes
    }
}
