import Foundation

@testable import DayfoldCore

/// Compares a produced CSV report with an expected one the way the
/// conformance README says: rows matched by key columns; only the expected
/// file's columns are compared; numbers within a relative 1e-9; an empty
/// field (NULL) must be empty on both sides; free-text columns are skipped.
enum ReportComparison {
    static let keys: [String: [String]] = [
        "coach_daily_summary": ["relationship_id", "local_date"],
        "relationship_days": ["relationship_id", "local_date"],
        "streaks": ["relationship_id"],
        "risk_signals": ["relationship_id", "signal"],
        "progress_ranges": ["user_id", "metric", "window_days"],
        "rejects": ["file", "line"],
        "client_days": ["user_id", "local_date"],
        "adherence_events": ["daily_task_instance_id"],
        "task_outcomes": ["daily_task_instance_id"],
        "push_deliveries": ["delivery_id"],
        "push_delivery_health": ["day", "provider", "platform", "app_surface", "app_version", "category"],
        "push_intent_summary": ["day", "category"],
        "reminder_effectiveness": ["relationship_id"],
    ]
    static let freeText: Set<String> = ["explanation", "coverage_label", "evidence", "raw"]

    /// Reads a CSV file with the project's own reader: header and rows.
    static func readCSV(_ url: URL) throws -> (header: [String], rows: [[String?]]) {
        let reader = try CSVRecordReader(stream: try openByteStream(path: url.path), path: url.path)
        var header: [String]?
        var rows: [[String?]] = []
        try reader.forEachRecord { record in
            let fields = (0..<record.fieldCount).map { record.string($0) }
            if header == nil { header = fields.map { $0 ?? "" } } else { rows.append(fields) }
        }
        return (header ?? [], rows)
    }

    static func sameValue(_ expected: String?, _ actual: String?) -> Bool {
        if expected == actual { return true }
        guard let expected, let actual else { return false }
        // Instants written with or without trailing zero microseconds are the same instant.
        if let left = parseAsOf(expected), let right = parseAsOf(actual) { return left.instant == right.instant }
        guard let left = Double(expected), let right = Double(actual) else { return false }
        return abs(left - right) <= 1e-9 * max(abs(left), abs(right), 1e-300)
    }

    /// Differences, described for a test failure; empty when the files agree.
    /// `overrides`: expected values that SPEC.md fixes otherwise than the
    /// worked example, by "<row key> <column>" (where the two disagree, SPEC.md rules).
    static func differences(
        report: String, expected: URL, actual: URL, compareOnly: Set<String>? = nil,
        overrides: [String: String?] = [:], limit: Int = 10
    )
        throws -> [String]
    {
        guard let keyColumns = keys[report] else { return ["no key columns known for \(report)"] }
        let want = try readCSV(expected)
        guard FileManager.default.fileExists(atPath: actual.path) else { return ["\(report): output file missing"] }
        let got = try readCSV(actual)
        var problems: [String] = []
        guard let wantKey = try? keyColumns.map({ name in try index(of: name, in: want.header) }),
            let gotKey = try? keyColumns.map({ name in try index(of: name, in: got.header) })
        else { return ["\(report): key columns \(keyColumns) missing from a header"] }
        func key(_ row: [String?], _ positions: [Int]) -> String {
            positions.map { row[$0] ?? "" }.joined(separator: "|")
        }
        var gotRows: [String: [String?]] = [:]
        for row in got.rows { gotRows[key(row, gotKey)] = row }
        var seen: Set<String> = []
        for row in want.rows {
            let rowKey = key(row, wantKey)
            seen.insert(rowKey)
            guard let actualRow = gotRows[rowKey] else {
                problems.append("\(report): missing row \(rowKey)")
                continue
            }
            for (position, column) in want.header.enumerated() {
                if freeText.contains(column) || (compareOnly.map { !$0.contains(column) } ?? false) { continue }
                guard let actualPosition = got.header.firstIndex(of: column) else {
                    problems.append("\(report): column \(column) missing")
                    continue
                }
                let wanted = overrides["\(rowKey) \(column)"] ?? row[position]
                if !sameValue(wanted, actualRow[actualPosition]) {
                    problems.append(
                        "\(report) \(rowKey) \(column): expected \(wanted ?? "NULL"), got \(actualRow[actualPosition] ?? "NULL")"
                    )
                }
            }
        }
        for rowKey in gotRows.keys.sorted() where !seen.contains(rowKey) {
            problems.append("\(report): unexpected row \(rowKey)")
        }
        return Array(problems.prefix(limit)) + (problems.count > limit ? ["… \(problems.count - limit) more"] : [])
    }

    private static func index(of name: String, in header: [String]) throws -> Int {
        guard let position = header.firstIndex(of: name) else { throw CocoaError(.coderValueNotFound) }
        return position
    }

    /// Compares `validate --json` output with an accounting.json of the
    /// conformance form (`{"files": {path: {rows_read, …}}}`).
    static func accountingDifferences(expected: URL, validateJSON: String) throws -> [String] {
        let wantObject = try JSONSerialization.jsonObject(with: Data(contentsOf: expected)) as? [String: Any]
        let gotObject = try JSONSerialization.jsonObject(with: Data(validateJSON.utf8)) as? [String: Any]
        guard let wantFiles = wantObject?["files"] as? [String: [String: Any]],
            let gotFiles = gotObject?["files"] as? [[String: Any]]
        else { return ["accounting: unreadable JSON"] }
        var byPath: [String: [String: Any]] = [:]
        for file in gotFiles { if let path = file["path"] as? String { byPath[path] = file } }
        var problems: [String] = []
        for (path, want) in wantFiles.sorted(by: { $0.key < $1.key }) {
            guard let got = byPath[path] else {
                problems.append("accounting: no entry for \(path)")
                continue
            }
            for field in ["rows_read", "accepted", "duplicate", "ignored", "rejected"] {
                let wantValue = (want[field] as? NSNumber)?.intValue
                let gotValue = (got[field] as? NSNumber)?.intValue
                if let wantValue, wantValue != gotValue {
                    problems.append(
                        "accounting \(path) \(field): expected \(wantValue), got \(gotValue.map(String.init) ?? "none")"
                    )
                }
            }
        }
        for file in gotFiles {
            let numbers = ["rows_read", "accepted", "duplicate", "ignored", "rejected"].map {
                (file[$0] as? NSNumber)?.intValue ?? -1
            }
            if numbers[0] != numbers[1] + numbers[2] + numbers[3] + numbers[4] {
                problems.append("accounting does not balance for \(file["path"] ?? "?")")
            }
        }
        return problems
    }
}
