import Foundation

/// Writes an RFC 4180 CSV file with a header row; NULL is an empty field.
/// Output is buffered and streamed to the file, so memory stays flat.
/// Cells a spreadsheet would run as a formula (leading `=`, `+`, `-`, `@`,
/// tab or CR, and not a number) get a leading `'`: the CSV-injection guard.
public final class CSVReportWriter {
    private var buffer: [UInt8] = []
    private let handle: FileHandle
    private let path: String
    public private(set) var rows = 0
    /// False for internal spill files, which must read back the exact values.
    private let guardFormulas: Bool

    public init(path: String, header: [String], guardFormulas: Bool = true) throws {
        self.path = path
        self.guardFormulas = guardFormulas
        let url = URL(fileURLWithPath: path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        guard FileManager.default.createFile(atPath: path, contents: nil) else {
            throw DayfoldError(.output, "cannot create \(path)", fix: "check that the output folder is writable")
        }
        handle = try FileHandle(forWritingTo: url)
        buffer.reserveCapacity(1 << 20)
        try append(row: header)
        rows = 0
    }

    public func append(row: [String?]) throws {
        for (position, cell) in row.enumerated() {
            if position > 0 { buffer.append(0x2C) }
            if let cell { CSVReportWriter.escape(cell, into: &buffer, guardFormulas: guardFormulas) }
        }
        buffer.append(0x0A)
        rows += 1
        if buffer.count >= 1 << 20 { try flush() }
    }

    /// Appends a record read back from a spill file (written without the
    /// formula guard): fields are copied as bytes; only a field that may need
    /// the guard goes through `escape`, so the output is the same as `append(row:)`.
    func append(record: CSVRecord) throws {
        let bytes = record.bytes
        for index in 0..<record.fieldCount {
            if index > 0 { buffer.append(0x2C) }
            let start = record.starts[index]
            let end = record.ends[index]
            guard start < end else { continue }
            let first = bytes[start]
            if guardFormulas
                && (first == 0x3D || first == 0x2B || first == 0x2D || first == 0x40 || first == 0x09
                    || first == 0x0D)
            {
                CSVReportWriter.escape(
                    String(decoding: bytes[start..<end], as: UTF8.self), into: &buffer, guardFormulas: true)
                continue
            }
            var needsQuotes = false
            for position in start..<end {
                let byte = bytes[position]
                if byte == 0x2C || byte == 0x22 || byte == 0x0A || byte == 0x0D {
                    needsQuotes = true
                    break
                }
            }
            if !needsQuotes {
                buffer.append(contentsOf: bytes[start..<end])
                continue
            }
            buffer.append(0x22)
            for position in start..<end {
                if bytes[position] == 0x22 { buffer.append(0x22) }
                buffer.append(bytes[position])
            }
            buffer.append(0x22)
        }
        buffer.append(0x0A)
        rows += 1
        if buffer.count >= 1 << 20 { try flush() }
    }

    private func flush() throws {
        try handle.write(contentsOf: buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    static func escape(_ cell: String, into output: inout [UInt8], guardFormulas: Bool = true) {
        var text = cell
        if guardFormulas, let first = text.utf8.first, [0x3D, 0x2B, 0x2D, 0x40, 0x09, 0x0D].contains(first),
            Double(text) == nil
        {
            text = "'" + text
        }
        let needsQuotes = text.utf8.contains { $0 == 0x2C || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D }
        guard needsQuotes else {
            output.append(contentsOf: text.utf8)
            return
        }
        output.append(0x22)
        for byte in text.utf8 {
            if byte == 0x22 { output.append(0x22) }
            output.append(byte)
        }
        output.append(0x22)
    }

    public func finish() throws {
        try flush()
        try handle.close()
    }
}
