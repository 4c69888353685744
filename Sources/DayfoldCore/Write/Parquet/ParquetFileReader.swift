import Foundation

/// Random-access reads of a whole file region, with errors that name the file.
struct ParquetFileReader {
    let path: String
    private let handle: FileHandle

    init(path: String) throws(ParquetError) {
        self.path = path
        do {
            handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        } catch {
            throw ParquetError(.io, path: path, operation: "open", detail: "\(error)")
        }
    }

    func size() throws(ParquetError) -> Int64 {
        do {
            return Int64(try handle.seekToEnd())
        } catch {
            throw ParquetError(.io, path: path, operation: "seek", detail: "\(error)")
        }
    }

    /// Exactly `count` bytes at `offset`, or an error if the file is shorter.
    func read(offset: Int64, count: Int) throws(ParquetError) -> [UInt8] {
        guard offset >= 0, count >= 0 else {
            throw ParquetError(.corrupt, path: path, operation: "read", detail: "negative offset or length")
        }
        let data: Data?
        do {
            try handle.seek(toOffset: UInt64(offset))
            data = try handle.read(upToCount: count)
        } catch {
            throw ParquetError(.io, path: path, operation: "read \(count) bytes at \(offset)", detail: "\(error)")
        }
        let bytes = data.map { [UInt8]($0) } ?? []
        guard bytes.count == count else {
            throw ParquetError(
                .corrupt, path: path, operation: "read \(count) bytes at \(offset)",
                detail: "file ends after \(bytes.count) bytes"
            )
        }
        return bytes
    }
}
