import CZip
import Foundation

/// Writes a zip archive with libzip (deflated entries, as the Health app's
/// "Export All Health Data" writes them), for the `export.zip` tests: no
/// binary archive is committed.
enum ZipFixture {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Writes `entries` (archive name → bytes), in order, to `url`.
    static func write(_ entries: [(name: String, bytes: [UInt8])], to url: URL) throws {
        var code: Int32 = 0
        guard let archive = zip_open(url.path, ZIP_CREATE | ZIP_TRUNCATE, &code) else {
            throw Failure(description: "zip_open failed: \(code)")
        }
        for entry in entries {
            // libzip frees the copy once the archive is written.
            guard let copy = malloc(max(1, entry.bytes.count)) else { throw Failure(description: "out of memory") }
            entry.bytes.withUnsafeBytes { bytes in
                if let base = bytes.baseAddress { memcpy(copy, base, bytes.count) }
            }
            guard let source = zip_source_buffer(archive, copy, zip_uint64_t(entry.bytes.count), 1),
                zip_file_add(archive, entry.name, source, zip_flags_t(ZIP_FL_ENC_UTF_8)) >= 0
            else {
                throw Failure(description: "zip_file_add \(entry.name): \(String(cString: zip_strerror(archive)))")
            }
        }
        guard zip_close(archive) == 0 else {
            throw Failure(description: "zip_close: \(String(cString: zip_strerror(archive)))")
        }
    }
}
