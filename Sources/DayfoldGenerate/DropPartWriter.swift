import DayfoldCore
import Foundation

/// One export kind written as numbered CSV part files in one drop folder
/// (`events-000.csv`, `events-001.csv`, …). Rows are built in a ~1 MB buffer
/// and handed to the file when it fills, so memory stays flat; a new part
/// starts before a part would pass `maxPartBytes` of CSV.
///
/// Parts are written under temporary names and numbered only in `finish`, so
/// a file written alongside the main one (a re-export, a batch of edits) can
/// still take the number after the main parts and sort after them.
struct DropPartWriter {
    /// A finished part: its path relative to the drop root, data rows, size
    /// on disk and size as CSV (before compression).
    struct Part: Sendable {
        var relativePath: String
        var rows: Int
        var bytes: Int64
        var csvBytes: Int64
    }

    /// The row being written; fill it with fields, then call `endRow()`.
    var row: CSVRowBuffer
    private let directory: String
    private let relativeFolder: String
    private let baseName: String
    private let label: String?
    private let header: [UInt8]
    private let zstd: Bool
    private let maxPartBytes: Int64
    private let keepsEmpty: Bool
    private var sink: DropFileSink?
    private var temporaryPaths: [String] = []
    private var finished: [Part] = []
    private var rowsInBuffer = 0
    private var rowStart = 0
    private var rowsInPart = 0
    private var csvBytesInPart: Int64 = 0
    /// Buffer size before a write: 1 MB, or a quarter of a (small) part limit,
    /// so parts stay within the limit.
    private let flushBytes: Int

    /// - Parameters:
    ///   - root: the drop root; `folder` is relative to it (`tasks/instances`).
    ///   - label: a suffix after the part number (`reexport` → `instances-003-reexport.csv`).
    ///   - keepsEmpty: write a header-only file when no row comes (main kinds do;
    ///     re-exports and edits leave no file).
    init(
        root: String, folder: String, baseName: String, label: String? = nil, header: String,
        zstd: Bool, maxPartBytes: Int64, keepsEmpty: Bool = true
    ) throws {
        directory = (root as NSString).appendingPathComponent(folder)
        relativeFolder = folder
        self.baseName = baseName
        self.label = label
        self.header = Array((header + "\n").utf8)
        self.zstd = zstd
        self.maxPartBytes = max(maxPartBytes, 1)
        flushBytes = Int(min(Int64(1 << 20), max(Int64(4096), maxPartBytes / 4)))
        self.keepsEmpty = keepsEmpty
        row = CSVRowBuffer(capacity: flushBytes + 64 * 1024)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        if keepsEmpty { try openPart() }
    }

    /// Ends the current row; writes the buffer out when it is full.
    mutating func endRow() throws {
        row.newline()
        rowsInBuffer += 1
        rowStart = row.count
        if row.count >= flushBytes { try flush() }
    }

    /// Ends the current row and writes it a second time, byte for byte (an
    /// exact duplicate, as exports sometimes hold).
    mutating func endRowTwice() throws {
        row.newline()
        row.repeatTail(from: rowStart)
        rowsInBuffer += 2
        rowStart = row.count
        if row.count >= flushBytes { try flush() }
    }

    private mutating func openPart() throws {
        let name = ".\(baseName)\(label.map { "-" + $0 } ?? "")-part\(temporaryPaths.count).tmp"
        let path = (directory as NSString).appendingPathComponent(name)
        sink = zstd ? try ZstdWriter(path: path) : try PlainFileSink(path: path)
        temporaryPaths.append(path)
        try sink?.write(header)
        rowsInPart = 0
        csvBytesInPart = Int64(header.count)
    }

    private mutating func closePart() throws {
        guard let open = sink else { return }
        let bytes = try open.finish()
        finished.append(Part(relativePath: "", rows: rowsInPart, bytes: bytes, csvBytes: csvBytesInPart))
        sink = nil
    }

    private mutating func flush() throws {
        guard rowsInBuffer > 0 else { return }
        if sink == nil {
            try openPart()
        } else if rowsInPart > 0 && csvBytesInPart + Int64(row.count) > maxPartBytes {
            try closePart()
            try openPart()
        }
        try sink?.write(row.bytes)
        rowsInPart += rowsInBuffer
        csvBytesInPart += Int64(row.count)
        rowsInBuffer = 0
        rowStart = 0
        row.removeAll()
    }

    /// Writes what is left, closes the last part and gives the parts their
    /// final names, numbered from `firstNumber`. Returns the parts in order.
    mutating func finish(firstNumber: Int) throws -> [Part] {
        try flush()
        try closePart()
        var parts: [Part] = []
        for (index, part) in finished.enumerated() {
            let number = String(firstNumber + index)
            let padded = String(repeating: "0", count: max(0, 3 - number.count)) + number
            let name = "\(baseName)-\(padded)\(label.map { "-" + $0 } ?? "").csv\(zstd ? ".zst" : "")"
            let finalPath = (directory as NSString).appendingPathComponent(name)
            if FileManager.default.fileExists(atPath: finalPath) {
                try FileManager.default.removeItem(atPath: finalPath)
            }
            try FileManager.default.moveItem(atPath: temporaryPaths[index], toPath: finalPath)
            var named = part
            named.relativePath = relativeFolder + "/" + name
            parts.append(named)
        }
        finished = []
        return parts
    }

    /// Finishes a single-file kind (`subjects/relationships.csv`): one part,
    /// named `<baseName>.csv` with no number.
    mutating func finishSingle() throws -> Part {
        try flush()
        try closePart()
        precondition(finished.count == 1, "a single-file kind was split; raise maxPartBytes")
        let name = "\(baseName).csv\(zstd ? ".zst" : "")"
        let finalPath = (directory as NSString).appendingPathComponent(name)
        if FileManager.default.fileExists(atPath: finalPath) {
            try FileManager.default.removeItem(atPath: finalPath)
        }
        try FileManager.default.moveItem(atPath: temporaryPaths[0], toPath: finalPath)
        var part = finished[0]
        part.relativePath = relativeFolder + "/" + name
        finished = []
        return part
    }
}
