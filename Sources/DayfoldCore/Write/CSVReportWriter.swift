import Foundation

/// Writes an RFC 4180 CSV file with a header row; NULL is an empty field.
/// Cells a spreadsheet would run as a formula (leading `=`, `+`, `-`, `@`,
/// tab or CR, and not a number) get a leading `'`: the CSV-injection guard.
public struct CSVReportWriter {
    private var output: [UInt8] = []
    private let path: String
    public private(set) var rows = 0

    public init(path: String, header: [String]) {
        self.path = path
        append(row: header)
        rows = 0
    }

    public mutating func append(row: [String?]) {
        for (position, cell) in row.enumerated() {
            if position > 0 { output.append(0x2C) }
            if let cell { output.append(contentsOf: CSVReportWriter.escape(cell)) }
        }
        output.append(0x0A)
        rows += 1
    }

    static func escape(_ cell: String) -> [UInt8] {
        var text = cell
        if let first = text.utf8.first, [0x3D, 0x2B, 0x2D, 0x40, 0x09, 0x0D].contains(first), Double(text) == nil {
            text = "'" + text
        }
        let needsQuotes = text.utf8.contains { $0 == 0x2C || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D }
        guard needsQuotes else { return Array(text.utf8) }
        var bytes: [UInt8] = [0x22]
        for byte in text.utf8 {
            if byte == 0x22 { bytes.append(0x22) }
            bytes.append(byte)
        }
        bytes.append(0x22)
        return bytes
    }

    public func finish() throws {
        let url = URL(fileURLWithPath: path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(output).write(to: url)
    }
}

extension Optional where Wrapped == Double {
    var cell: String? { map(formatNumber) }
}

extension Optional where Wrapped == LocalDate {
    var cell: String? { map(\.description) }
}
