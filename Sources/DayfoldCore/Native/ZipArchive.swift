import CZip

/// A zip archive opened read-only with libzip (the archive the Health app's
/// "Export All Health Data" writes). Entries are streamed out of the archive
/// (`entryStream`), never unpacked to disk. `ZIP_CHECKCONS` makes libzip
/// check the central directory against the local headers, so a truncated or
/// damaged archive fails when it is opened rather than half-way.
public final class ZipArchive {
    private let archive: OpaquePointer
    public let path: String

    public init(path: String) throws {
        var code: Int32 = 0
        guard let archive = zip_open(path, ZIP_RDONLY | ZIP_CHECKCONS, &code) else {
            throw ByteStreamError(kind: .zip, path: path, detail: ZipArchive.message(code: code))
        }
        self.archive = archive
        self.path = path
    }

    deinit { zip_discard(archive) }

    /// libzip's text for an error code (`zip_open` reports only a code).
    static func message(code: Int32) -> String {
        var error = zip_error_t()
        zip_error_init_with_code(&error, code)
        defer { zip_error_fini(&error) }
        return String(cString: zip_error_strerror(&error))
    }

    /// The entries' names, in the archive's order (folders end in `/`).
    public func entryNames() throws -> [String] {
        let count = zip_get_num_entries(archive, 0)
        guard count >= 0 else {
            throw ByteStreamError(kind: .zip, path: path, detail: String(cString: zip_strerror(archive)))
        }
        var names: [String] = []
        for index in 0..<count {
            guard let name = zip_get_name(archive, zip_uint64_t(index), 0) else {
                throw ByteStreamError(kind: .zip, path: path, detail: String(cString: zip_strerror(archive)))
            }
            names.append(String(cString: name))
        }
        return names
    }

    /// A stream of entry `index`'s uncompressed bytes (libzip checks its CRC
    /// at the end: a damaged entry fails there). The archive file itself is
    /// hashed whole by the caller, like other non-CSV inputs.
    public func entryStream(_ index: Int, chunkSize: Int = 1 << 20) throws -> ByteStream {
        guard let file = zip_fopen_index(archive, zip_uint64_t(index), 0) else {
            throw ByteStreamError(kind: .zip, path: path, detail: String(cString: zip_strerror(archive)))
        }
        return ZipEntryByteStream(archive: self, file: file, chunkSize: chunkSize)
    }
}

/// One entry of a `ZipArchive`, decompressed a chunk at a time (`zip_fread`).
final class ZipEntryByteStream: ByteStream {
    /// Kept alive: the entry's handle reads through the archive's.
    private let archive: ZipArchive
    private let file: OpaquePointer
    private let chunkSize: Int

    init(archive: ZipArchive, file: OpaquePointer, chunkSize: Int) {
        self.archive = archive
        self.file = file
        self.chunkSize = chunkSize
    }

    deinit { zip_fclose(file) }

    func nextChunk() throws -> [UInt8]? {
        // Inflated into uninitialised room: no zeroing of a chunk about to be overwritten.
        var chunk: [UInt8] = []
        var count: zip_int64_t = 0
        chunk.append(addingCapacity: chunkSize) { output in
            output.withUnsafeMutableBufferPointer { room, initialized in
                count = zip_fread(file, room.baseAddress, zip_uint64_t(room.count))
                initialized = max(0, Int(count))
            }
        }
        guard count >= 0 else {
            throw ByteStreamError(kind: .zip, path: archive.path, detail: String(cString: zip_file_strerror(file)))
        }
        return count == 0 ? nil : chunk
    }
}
