import Foundation

/// Why an archive's bytes cannot be used: it is cut short, of another
/// format or build, or its check does not match. Never a crash: a reader
/// checks every count against what is left before it allocates.
public struct BinaryArchiveError: Error, Sendable, CustomStringConvertible {
    public var reason: String
    public var description: String { reason }
}

/// Writes plain data to a file in this machine's byte order, for the same
/// build of dayfold to read back (`BinaryArchiveReader`): a state file,
/// not an interchange format. Arrays of plain values go out as their bytes,
/// straight from their storage (a reading of a 1 GB drop is a few hundred MB
/// of such arrays: encoding them field by field would cost what reading the
/// drop costs); everything else is built from lengths and UTF-8.
///
/// Every piece written is folded into a check (`Fingerprint`, two 64-bit
/// chains), in the pieces' order, which the reader recomputes: a flipped
/// byte or a cut file is found before any value read is used.
struct BinaryArchiveWriter {
    /// Written past the page cache where the file system allows it
    /// (`OutputFile`): a reading is hundreds of MB that the next run reads
    /// once, and copying it into the cache cost this VM about 3 s for a
    /// 550 MB reading, against 0.4 s written direct.
    private let file: OutputFile
    private let path: String
    private var buffer: [UInt8] = []
    private var check = Fingerprint()
    /// Bytes written so far (the file's size once finished).
    private(set) var size = 0

    /// Creates (or truncates) `path`.
    init(path: String) throws(SystemCallError) {
        file = try OutputFile(path: path)
        self.path = path
        buffer.reserveCapacity(1 << 20)
    }

    /// Whether the file is still open (`finish` and `abandon` close it once).
    private var isOpen = true

    /// Closes the file without finishing it (a failed write; the caller removes it).
    mutating func abandon() {
        guard isOpen else { return }
        isOpen = false
        file.abandon()
    }

    mutating func write(_ value: Int) { scalar(Int64(value)) }
    mutating func write(_ value: Int64) { scalar(value) }
    mutating func write(_ value: UInt64) { scalar(value) }
    mutating func write(_ value: Int32) { scalar(value) }
    mutating func write(_ value: Double) { scalar(value.bitPattern) }
    mutating func write(_ value: Bool) { scalar(UInt8(value ? 1 : 0)) }

    mutating func write(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            write(bytes.count)
            check.combine(bytes)
            buffer.append(contentsOf: bytes)
        }
    }

    mutating func write(_ text: String?) {
        write(text != nil)
        if let text { write(text) }
    }

    mutating func write(_ texts: [String]) {
        write(texts.count)
        for text in texts { write(text) }
    }

    /// A plain value's bytes (`MemoryLayout<Value>.size` of them; padding
    /// bytes too, as they lie: the check covers them, and only the check
    /// and the reader read them).
    mutating func write<Value: BitwiseCopyable>(plain value: Value) {
        withUnsafeBytes(of: value) { raw in
            check.combine(raw.bindMemory(to: UInt8.self))
            buffer.append(contentsOf: raw)
        }
    }

    /// An array of plain values: its count and stride, then its storage.
    mutating func write<Value: BitwiseCopyable>(plain values: [Value]) throws(SystemCallError) {
        write(values.count)
        write(MemoryLayout<Value>.stride)
        var failure: SystemCallError?
        values.withUnsafeBytes { raw in
            check.combine(raw.bindMemory(to: UInt8.self))
            if raw.count < 1 << 16 {
                buffer.append(contentsOf: raw)
                return
            }
            do throws(SystemCallError) {
                try flush()
                try put(raw)
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
    }

    /// Writes what is buffered, the check and a closing mark, and closes
    /// the file. Returns the check (hex).
    ///
    /// Written direct, the bytes are on the disk when this returns (the
    /// file's size and blocks too, `OutputFile.close`); where the file went
    /// through the page cache, a crash may leave it cut or holding zeros,
    /// which its check finds (the reader then refuses it, and the run does
    /// without it).
    mutating func finish() throws(SystemCallError) -> String {
        let value = check.value
        scalar(value)
        scalar(BinaryArchiveReader.closingMark)
        do throws(SystemCallError) {
            try flush()
        } catch {
            abandon()
            throw error
        }
        isOpen = false
        try file.close()
        return String(value, radix: 16)
    }

    private mutating func scalar<Value: BitwiseCopyable>(_ value: Value) {
        withUnsafeBytes(of: value) { raw in
            check.combine(raw.bindMemory(to: UInt8.self))
            buffer.append(contentsOf: raw)
        }
        if buffer.count >= 1 << 20 {
            do { try flush() } catch { pendingError = error }
        }
    }

    /// Scalars flush as the buffer fills, without a throw of their own: a
    /// failure then is thrown by the next array's write or by `finish()`.
    private var pendingError: SystemCallError?

    private mutating func flush() throws(SystemCallError) {
        if let pendingError { throw pendingError }
        guard !buffer.isEmpty else { return }
        let pending = buffer
        buffer.removeAll(keepingCapacity: true)
        var failure: SystemCallError?
        pending.withUnsafeBytes { raw in
            do throws(SystemCallError) { try put(raw) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    private mutating func put(_ raw: UnsafeRawBufferPointer) throws(SystemCallError) {
        try file.append(raw)
        size += raw.count
    }
}

/// Reads back what `BinaryArchiveWriter` wrote, in the same order, from a
/// file: arrays of plain values are read straight into their storage (no
/// second copy of the archive in memory). Every count is checked against
/// the bytes left before anything is allocated, and `finish()` compares
/// the check: values read from an archive that fails it must not be used.
struct BinaryArchiveReader {
    static let closingMark: UInt64 = 0x4441_5946_4F4C_4421  // "DAYFOLD!"

    private let descriptor: Int32
    private let path: String
    private let fileSize: Int
    private var buffer: [UInt8] = []
    private var position = 0
    /// File offset of `buffer`'s end.
    private var offset = 0
    private var check = Fingerprint()

    init(path: String) throws(BinaryArchiveError) {
        let descriptor = Foundation.open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw BinaryArchiveError(reason: "\(path) cannot be opened (\(String(cString: strerror(errno))))")
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            Foundation.close(descriptor)
            throw BinaryArchiveError(reason: "\(path) cannot be read")
        }
        self.descriptor = descriptor
        self.path = path
        fileSize = Int(info.st_size)
    }

    /// Closes the file (after `finish()` or a failure).
    func close() { Foundation.close(descriptor) }

    private var remaining: Int { fileSize - offset + (buffer.count - position) }

    private func malformed(_ what: String) -> BinaryArchiveError {
        BinaryArchiveError(reason: "\(path) is not whole (\(what))")
    }

    mutating func readInt() throws(BinaryArchiveError) -> Int {
        let value: Int64 = try scalar()
        return Int(value)
    }

    mutating func readInt64() throws(BinaryArchiveError) -> Int64 { try scalar() }
    mutating func readUInt64() throws(BinaryArchiveError) -> UInt64 { try scalar() }
    mutating func readInt32() throws(BinaryArchiveError) -> Int32 { try scalar() }
    mutating func readDouble() throws(BinaryArchiveError) -> Double { Double(bitPattern: try scalar()) }

    mutating func readBool() throws(BinaryArchiveError) -> Bool {
        let byte: UInt8 = try scalar()
        guard byte <= 1 else { throw malformed("a flag reads \(byte)") }
        return byte == 1
    }

    /// A count of things each at least `size` bytes long: never more than could fit in what is left.
    mutating func readCount(eachAtLeast size: Int = 1) throws(BinaryArchiveError) -> Int {
        let count = try readInt()
        guard count >= 0, count <= remaining / max(size, 1) else { throw malformed("a count of \(count)") }
        return count
    }

    mutating func readString() throws(BinaryArchiveError) -> String {
        let count = try readCount()
        let bytes = try take(count)
        guard let text = String(validating: bytes, as: UTF8.self) else { throw malformed("a text is not UTF-8") }
        return text
    }

    mutating func readOptionalString() throws(BinaryArchiveError) -> String? {
        try readBool() ? try readString() : nil
    }

    mutating func readStrings() throws(BinaryArchiveError) -> [String] {
        let count = try readCount(eachAtLeast: 8)
        var texts: [String] = []
        texts.reserveCapacity(count)
        for _ in 0..<count { texts.append(try readString()) }
        return texts
    }

    /// A plain value written by `write(plain:)` (the same build: same layout).
    mutating func readPlain<Value: BitwiseCopyable>(_: Value.Type) throws(BinaryArchiveError) -> Value {
        try scalar()
    }

    /// An array written by `write(plain:)`.
    mutating func readPlainArray<Value: BitwiseCopyable>(_: Value.Type) throws(BinaryArchiveError) -> [Value] {
        let count = try readCount()
        let stride = try readInt()
        guard stride == MemoryLayout<Value>.stride else {
            throw malformed("an array of \(Value.self) has stride \(stride), this build \(MemoryLayout<Value>.stride)")
        }
        guard count <= remaining / max(stride, 1) else { throw malformed("an array of \(count) \(Value.self)") }
        let byteCount = count * stride
        var failure: BinaryArchiveError?
        // Room to grow by a quarter: a reading resumed with new rows appends
        // to its arrays, and an array read back full would be copied whole
        // by the first row appended (room never written costs no memory:
        // its pages are never touched).
        let room = byteCount >= 1 << 20 ? count + count / 4 : count
        let values = [Value](unsafeUninitializedCapacity: room) { storage, initialized in
            let raw = UnsafeMutableRawBufferPointer(storage)
            do throws(BinaryArchiveError) {
                try fill(UnsafeMutableRawBufferPointer(rebasing: raw[0..<byteCount]))
                initialized = count
            } catch {
                failure = error
                initialized = 0
            }
        }
        if let failure { throw failure }
        return values
    }

    /// Checks the closing check and mark; throws when they do not match
    /// what was read, or when bytes are left over. Returns the check (hex,
    /// as `BinaryArchiveWriter.finish()` returned it).
    @discardableResult
    mutating func finish() throws(BinaryArchiveError) -> String {
        let expected = check.value
        let stored: UInt64 = try scalar()
        let mark: UInt64 = try scalar()
        guard mark == BinaryArchiveReader.closingMark, remaining == 0 else { throw malformed("no closing mark") }
        guard stored == expected else { throw BinaryArchiveError(reason: "\(path) fails its check: a byte changed") }
        return String(expected, radix: 16)
    }

    private mutating func scalar<Value: BitwiseCopyable>() throws(BinaryArchiveError) -> Value {
        let bytes = try take(MemoryLayout<Value>.size)
        return bytes.withUnsafeBytes { $0.loadUnaligned(as: Value.self) }
    }

    /// The next `count` bytes (folded into the check as one piece).
    private mutating func take(_ count: Int) throws(BinaryArchiveError) -> [UInt8] {
        guard count <= remaining else { throw malformed("\(count) bytes wanted, \(remaining) left") }
        var bytes = [UInt8](repeating: 0, count: count)
        var failure: BinaryArchiveError?
        bytes.withUnsafeMutableBytes { raw in
            do throws(BinaryArchiveError) { try fill(raw) } catch { failure = error }
        }
        if let failure { throw failure }
        return bytes
    }

    /// Fills `target` with the next bytes: from the buffer, then (for a
    /// large piece) straight from the file. Folds them into the check.
    private mutating func fill(_ target: UnsafeMutableRawBufferPointer) throws(BinaryArchiveError) {
        var done = 0
        let fromBuffer = min(target.count, buffer.count - position)
        if fromBuffer > 0 {
            buffer.withUnsafeBytes { source in
                target.baseAddress?.copyMemory(from: source.baseAddress! + position, byteCount: fromBuffer)
            }
            position += fromBuffer
            done = fromBuffer
        }
        if target.count - done >= 1 << 16 {
            try readFile(into: UnsafeMutableRawBufferPointer(rebasing: target[done...]))
            done = target.count
        }
        while done < target.count {
            try refill()
            let count = min(target.count - done, buffer.count - position)
            buffer.withUnsafeBytes { source in
                (target.baseAddress! + done).copyMemory(from: source.baseAddress! + position, byteCount: count)
            }
            position += count
            done += count
        }
        check.combine(UnsafeRawBufferPointer(target).bindMemory(to: UInt8.self))
    }

    private mutating func refill() throws(BinaryArchiveError) {
        let count = min(1 << 20, fileSize - offset)
        guard count > 0 else { throw malformed("cut short") }
        var fresh = [UInt8](repeating: 0, count: count)
        var failure: BinaryArchiveError?
        fresh.withUnsafeMutableBytes { raw in
            do throws(BinaryArchiveError) { try readFile(into: raw) } catch { failure = error }
        }
        if let failure { throw failure }
        buffer = fresh
        position = 0
    }

    private mutating func readFile(into target: UnsafeMutableRawBufferPointer) throws(BinaryArchiveError) {
        var done = 0
        while done < target.count {
            let count = pread(descriptor, target.baseAddress! + done, target.count - done, off_t(offset))
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw malformed("cut short") }
            done += count
            offset += count
        }
    }
}
