/// RFC 4180 quoting of a CSV field given as bytes in place (a spill
/// record's field, a byte column's value, a String's UTF-8): the report
/// writer's per-cell path, so the test for bytes that need quotes goes 8
/// bytes at a time (`ByteWords`; ids and dates, most cells, hold none).
enum CSVFieldQuoting {
    /// Appends `field` as RFC 4180 wants it: quoted (quotes doubled) when it
    /// holds a comma, a quote or a line break, as is otherwise.
    static func append(_ field: Span<UInt8>, into output: inout [UInt8]) {
        field.withUnsafeBufferPointer { field in
            guard needsQuotes(field) else {
                output.append(contentsOf: field)
                return
            }
            output.append(0x22)
            for byte in field {
                if byte == 0x22 { output.append(0x22) }
                output.append(byte)
            }
            output.append(0x22)
        }
    }

    /// Whether the field holds a comma, a quote, LF or CR.
    static func needsQuotes(_ field: Span<UInt8>) -> Bool {
        field.withUnsafeBufferPointer { needsQuotes($0) }
    }

    /// The field's text (invalid UTF-8 replaced, as `String(decoding:as:)`
    /// does): for the rare field that goes through the formula guard.
    static func text(_ field: Span<UInt8>) -> String {
        field.withUnsafeBufferPointer { String(decoding: $0, as: UTF8.self) }
    }

    @inline(__always)
    private static func needsQuotes(_ field: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = field.baseAddress else { return false }
        var offset = 0
        while offset + 8 <= field.count {
            let word = UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self)
            let hit =
                ByteWords.zeroBytes(word ^ commas) | ByteWords.zeroBytes(word ^ quotes)
                | ByteWords.zeroBytes(word ^ lineFeeds) | ByteWords.zeroBytes(word ^ returns)
            if hit != 0 { return true }
            offset += 8
        }
        while offset < field.count {
            let byte = base[offset]
            if byte == 0x2C || byte == 0x22 || byte == 0x0A || byte == 0x0D { return true }
            offset += 1
        }
        return false
    }

    private static let commas = ByteWords.repeated(0x2C)
    private static let quotes = ByteWords.repeated(0x22)
    private static let lineFeeds = ByteWords.repeated(0x0A)
    private static let returns = ByteWords.repeated(0x0D)
}
