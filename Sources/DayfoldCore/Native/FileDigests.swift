import Foundation

/// The SHA-256 of whole files, two files at a time on one thread.
///
/// Why not hash while ingest reads: one SHA-256 stream is bound by the
/// latency of the CPU's round instruction (about 1.7 GB/s here), and the
/// reading threads have the cores busy. Two independent files hashed side
/// by side fill each other's waits (about 2.5 GB/s for both), and on a
/// thread of their own the digests use the moments the pipeline leaves a
/// core idle. The files are mapped a window at a time (already in the page
/// cache after ingest has read them, or read once for both): no copy into a
/// buffer, and only two windows are resident at once.
///
/// Without the SHA instructions, each file is read and hashed on its own by OpenSSL.
enum FileDigests {
    /// Bytes mapped at once per file: a multiple of the page size and of
    /// the 64-byte block, so blocks never straddle two windows.
    static let windowBytes = 8 << 20

    /// Each file's hex digest and size, in order; nil for a file that could
    /// not be read. A file that cannot be mapped (some file systems) is read
    /// and hashed chunk by chunk instead. `window` (tests) must be a multiple
    /// of the page size (0 maps nothing); `paired: false` (tests, and CPUs
    /// without the SHA instructions) reads and hashes one file at a time.
    static func hex(
        of paths: [String], window: Int = windowBytes, paired: Bool = SHA256Hasher.pairedBlocks
    ) -> [(digest: String, size: Int)?] {
        guard paired else { return paths.map(streamed) }
        var results = inPairs(paths, window: window)
        for index in results.indices where results[index] == nil { results[index] = streamed(paths[index]) }
        return results
    }

    /// A file read with `read` and hashed as it comes.
    private static func streamed(_ path: String) -> (digest: String, size: Int)? {
        guard let stream = try? FileByteStream(path: path) else { return nil }
        let digest = StreamDigest()
        stream.digest = digest
        do {
            while try stream.nextChunk() != nil {}
        } catch {
            return nil
        }
        return (digest.hex(), digest.bytes)
    }

    /// The mapped files' digests, two lanes side by side (nil: not mapped).
    private static func inPairs(_ paths: [String], window: Int) -> [(digest: String, size: Int)?] {
        var results = [(digest: String, size: Int)?](repeating: nil, count: paths.count)
        var lanes: [Lane?] = [nil, nil]
        var next = 0
        /// The next file that opens, into `lanes[slot]` (nil when none is left).
        func refill(_ slot: Int) {
            lanes[slot] = nil
            while next < paths.count {
                let index = next
                next += 1
                if let file = FileWindow.open(paths[index], window: window) {
                    lanes[slot] = Lane(index: index, file: file)
                    return
                }
            }
        }
        refill(0)
        refill(1)
        while true {
            // Each lane holds at least one whole block in its window, or is
            // finished and refilled.
            for slot in 0..<2 {
                while var lane = lanes[slot], !lane.hasBlock {
                    if lane.moveWindow() {
                        lanes[slot] = lane
                        continue
                    }
                    if let digest = lane.finish() { results[lane.index] = (digest, lane.file.size) }
                    refill(slot)
                }
            }
            switch (lanes[0], lanes[1]) {
            case (nil, nil):
                return results
            case (var a?, var b?):
                let blocks = min(a.blocks, b.blocks)
                guard let bytesA = a.nextBlocks, let bytesB = b.nextBlocks else {
                    preconditionFailure("a lane without a window")
                }
                SHA256Blocks.compress(&a.hasher, bytesA, &b.hasher, bytesB, blocks: blocks)
                a.file.position += 64 * blocks
                b.file.position += 64 * blocks
                lanes[0] = a
                lanes[1] = b
            case (var lane?, nil), (nil, var lane?):
                let slot = lanes[0] == nil ? 1 : 0
                let blocks = lane.blocks
                guard let bytes = lane.nextBlocks else { preconditionFailure("a lane without a window") }
                lane.hasher.compress(bytes, blocks: blocks)
                lane.file.position += 64 * blocks
                lanes[slot] = lane
            }
        }
    }

    /// One file being hashed: its window and its SHA-256 state.
    private struct Lane {
        let index: Int
        var file: FileWindow
        var hasher = SHA256Blocks()

        /// Whole blocks left in the mapped window.
        var blocks: Int { (file.windowEnd - file.position) / 64 }
        var hasBlock: Bool { file.window != nil && blocks > 0 }

        /// The bytes of the next blocks (nil when no window is mapped).
        var nextBlocks: UnsafePointer<UInt8>? {
            guard let base = file.window?.baseAddress else { return nil }
            return UnsafePointer((base + (file.position - file.windowStart)).assumingMemoryBound(to: UInt8.self))
        }

        /// Maps the window at the current position; false at the file's last
        /// partial block (or when mapping fails: then `finish` reports it).
        mutating func moveWindow() -> Bool {
            guard file.size - file.position >= 64 else { return false }
            return file.map(at: file.position)
        }

        /// The digest, after the last partial block and the padding.
        /// nil when the file could not be mapped to its end.
        mutating func finish() -> String? {
            defer { file.close() }
            let rest = file.size - file.position
            guard rest < 64 else { return nil }
            guard rest > 0 else { return hasher.finishHex(tail: UnsafeRawBufferPointer(start: nil, count: 0)) }
            if file.position < file.windowStart || file.position + rest > file.windowEnd {
                guard file.map(at: file.position - file.position % Int(getpagesize())) else { return nil }
            }
            guard let base = file.window?.baseAddress else { return nil }
            return hasher.finishHex(
                tail: UnsafeRawBufferPointer(start: base + (file.position - file.windowStart), count: rest))
        }
    }
}

/// A read-only file mapped one window at a time (`mmap` wrapped here only).
private struct FileWindow {
    let descriptor: Int32
    let size: Int
    let windowBytes: Int
    /// Bytes hashed so far.
    var position = 0
    private(set) var window: UnsafeMutableRawBufferPointer?
    private(set) var windowStart = 0
    var windowEnd: Int { windowStart + (window?.count ?? 0) }

    private init(descriptor: Int32, size: Int, windowBytes: Int) {
        self.descriptor = descriptor
        self.size = size
        self.windowBytes = windowBytes
    }

    static func open(_ path: String, window: Int) -> FileWindow? {
        let descriptor = Foundation.open(path, O_RDONLY)
        guard descriptor >= 0 else { return nil }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            Foundation.close(descriptor)
            return nil
        }
        return FileWindow(descriptor: descriptor, size: Int(status.st_size), windowBytes: window)
    }

    /// Maps the window starting at `offset` (a multiple of the page size);
    /// false when the file cannot be mapped there.
    mutating func map(at offset: Int) -> Bool {
        unmap()
        let length = min(windowBytes, size - offset)
        guard length > 0 else { return false }
        // Populated at once: one call maps the window's cached pages instead
        // of a fault per few pages.
        guard let base = mmap(nil, length, PROT_READ, MAP_PRIVATE | MAP_POPULATE, descriptor, off_t(offset)),
            base != UnsafeMutableRawPointer(bitPattern: -1)
        else { return false }
        window = UnsafeMutableRawBufferPointer(start: base, count: length)
        windowStart = offset
        return true
    }

    mutating func unmap() {
        if let window, let base = window.baseAddress { munmap(base, window.count) }
        window = nil
    }

    mutating func close() {
        unmap()
        Foundation.close(descriptor)
    }
}
