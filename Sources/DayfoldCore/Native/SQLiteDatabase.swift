import CSQLite

/// A SQLite error with the library's message and what was running.
public struct SQLiteError: Error, Sendable, CustomStringConvertible {
    public var code: Int32
    public var message: String
    public var operation: String
    public var description: String { "sqlite: \(operation): \(message) (code \(code))" }
}

/// A read-only SQLite connection; the handle lives and dies with the object.
final class SQLiteDatabase {
    private let handle: OpaquePointer

    init(path: String) throws {
        var connection: OpaquePointer?
        let code = sqlite3_open_v2(path, &connection, SQLITE_OPEN_READONLY, nil)
        guard code == SQLITE_OK, let connection else {
            let message = connection.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            sqlite3_close(connection)
            throw SQLiteError(code: code, message: message, operation: "open \(path)")
        }
        handle = connection
    }

    deinit { sqlite3_close(handle) }

    private func check(_ code: Int32, _ operation: String) throws {
        guard code == SQLITE_OK || code == SQLITE_ROW || code == SQLITE_DONE else {
            throw SQLiteError(code: code, message: String(cString: sqlite3_errmsg(handle)), operation: operation)
        }
    }

    func columnNames(table: String) throws -> [String] {
        var names: [String] = []
        try forEachRow("PRAGMA table_info(\"\(table)\")") { values in
            if values.count > 1, let name = values[1] { names.append(name) }
        }
        if names.isEmpty {
            throw SQLiteError(code: 1, message: "no table \(table)", operation: "read schema")
        }
        return names
    }

    /// Runs a query, passing each row's values as text (NULL as nil).
    func forEachRow(_ sql: String, _ body: ([String?]) throws -> Void) throws {
        var statement: OpaquePointer?
        try check(sqlite3_prepare_v2(handle, sql, -1, &statement, nil), "prepare \(sql)")
        defer { sqlite3_finalize(statement) }
        let columnCount = sqlite3_column_count(statement)
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { break }
            try check(code, "step")
            var values: [String?] = []
            values.reserveCapacity(Int(columnCount))
            for column in 0..<columnCount {
                if sqlite3_column_type(statement, column) == SQLITE_NULL {
                    values.append(nil)
                } else if let text = sqlite3_column_text(statement, column) {
                    values.append(String(cString: text))
                } else {
                    values.append(nil)
                }
            }
            try body(values)
        }
    }
}
