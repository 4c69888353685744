/// `dayfold inspect`: a Parquet file's metadata and first rows, read back
/// with the project's own reader (which also proves the metadata we write).
public enum SnapshotInspector {
    public static func describe(path: String, rows: Int) throws -> String {
        let info: ParquetFileInfo
        do {
            info = try ParquetFileInfo.read(path: path)
        } catch {
            throw DayfoldError(.input, "\(path): not a readable Parquet file: \(error)")
        }
        var lines = [
            "file: \(path)", "rows: \(info.rowCount)", "codec: \(info.codec)", "created_by: \(info.createdBy ?? "-")",
        ]
        lines.append("schema:")
        for field in info.fields {
            lines.append("  \(field.name): \(field.type)\(field.nullable ? " (nullable)" : "")")
        }
        lines.append("row groups: \(info.rowGroups.count)")
        for (index, group) in info.rowGroups.enumerated() {
            lines.append(
                "  #\(index): \(group.rows) rows, \(group.bytes) bytes compressed, \(group.uncompressedBytes) uncompressed"
            )
        }
        let columns = try info.readColumns(path: path, limit: rows)
        let count = columns.first?.count ?? 0
        lines.append("first \(count) rows:")
        lines.append("  " + info.fields.map(\.name).joined(separator: " | "))
        for rowIndex in 0..<count {
            let cells = zip(info.fields, columns).map { field, column in text(column, rowIndex, field.type) }
            lines.append("  " + cells.joined(separator: " | "))
        }
        return lines.joined(separator: "\n")
    }

    static func text(_ column: ParquetColumnData, _ index: Int, _ type: ParquetType) -> String {
        switch column {
        case .boolean(let values): return values[index].map { $0 ? "true" : "false" } ?? "NULL"
        case .int32(let values):
            guard let value = values[index] else { return "NULL" }
            return type == .date ? LocalDate(days: value).description : String(value)
        case .int64(let values):
            guard let value = values[index] else { return "NULL" }
            return type == .timestampMicros ? Instant(micros: value).description : String(value)
        case .double(let values): return values[index].map(formatNumber) ?? "NULL"
        case .string(let values): return values[index] ?? "NULL"
        case .utf8(let column): return column.strings[index] ?? "NULL"
        }
    }
}
