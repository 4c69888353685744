/// What `dayfold validate` prints: per-file accounting and the top reasons.
public enum ValidationReport {
    public static func json(_ drop: IngestedDrop) -> String {
        let files = drop.accounts.map { account in
            "{\"path\":\(jsonString(account.path)),\"rows_read\":\(account.rowsRead),\"accepted\":\(account.accepted),"
                + "\"duplicate\":\(account.duplicate),\"ignored\":\(account.ignored),\"rejected\":\(account.rejected)"
                + (account.failed.map { ",\"failed\":\(jsonString($0))" } ?? "")
                + (account.skipped.map { ",\"skipped\":\(jsonString($0))" } ?? "") + "}"
        }
        let rejects = ReportTables.rejects(drop.rejects).map { row in
            "{\"file\":\(jsonString(row[0] ?? "")),\"line\":\(row[1] ?? "0"),\"kind\":\(jsonString(row[2] ?? "")),\"reason\":\(jsonString(row[3] ?? ""))}"
        }
        let unrecognized = drop.unrecognizedFiles.map {
            "{\"path\":\(jsonString($0.path)),\"reason\":\(jsonString($0.reason))}"
        }
        return "{\"files\":[" + files.joined(separator: ",") + "],\"rejects\":[" + rejects.joined(separator: ",")
            + "],\"unrecognized_files\":[" + unrecognized.joined(separator: ",") + "]}"
    }

    public static func table(_ drop: IngestedDrop) -> String {
        let width = max(4, drop.accounts.map(\.path.count).max() ?? 4)
        func padRight(_ text: String, _ size: Int) -> String {
            text + String(repeating: " ", count: max(0, size - text.count))
        }
        func padLeft(_ text: String, _ size: Int) -> String {
            String(repeating: " ", count: max(0, size - text.count)) + text
        }
        var lines = [
            padRight("file", width) + "  "
                + ["read", "accepted", "duplicate", "ignored", "rejected"].map { padLeft($0, 9) }.joined(separator: " ")
        ]
        for account in drop.accounts {
            var line = padRight(account.path, width) + "  "
            line += [account.rowsRead, account.accepted, account.duplicate, account.ignored, account.rejected]
                .map { padLeft(String($0), 9) }.joined(separator: " ")
            if let failed = account.failed { line += "  FAILED: \(failed)" }
            if let skipped = account.skipped { line += "  skipped: \(skipped)" }
            lines.append(line)
        }
        lines.append("")
        lines.append("\(drop.rowsRead) rows read, \(drop.rowsRejected) rejected")
        var reasons: [String: Int] = [:]
        for reject in drop.rejects { reasons[reject.reason, default: 0] += 1 }
        if !reasons.isEmpty {
            lines.append("top reject reasons:")
            for (reason, count) in reasons.sorted(by: { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key })
                .prefix(10)
            {
                lines.append("  \(padLeft(String(count), 6))  \(reason)")
            }
            lines.append("see every rejected row with its file and line: dayfold run … → rejects/rejects.csv")
        }
        return lines.joined(separator: "\n")
    }
}
