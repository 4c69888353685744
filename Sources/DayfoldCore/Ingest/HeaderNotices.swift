import Foundation

/// What the files' headers said that the operator should hear (SPEC §10
/// "Headers are checked per file"), made from the accounts once the files
/// are read (so the counts are whole): one stderr line per file whose
/// header lacks an expected column (its rows are rejects of §9 as well),
/// and a warning per unknown column that looks like a misspelt one.
/// Nothing is printed from inside the reading loops.
public enum HeaderNotices {
    /// `tasks/status_events/e-1.csv: header has no occurred_at column; its 1013 rows are rejected`.
    public static func missingColumnLines(_ accounts: [FileAccount]) -> [String] {
        accounts.compactMap { account in
            guard let column = account.missingHeaderColumn else { return nil }
            let rows = account.rejected == 1 ? "its 1 row is rejected" : "its \(account.rejected) rows are rejected"
            return "\(account.path): header has no \(column) column; \(rows)"
        }
    }

    /// `tasks/instances/i.csv: unknown column time_zone; did you mean timezone?`,
    /// the unknown name cut as every name echoed from an input (`Manifest.echoed`).
    public static func warnings(_ accounts: [FileAccount]) -> [String] {
        accounts.flatMap { account in
            account.columnHints.map { hint in
                "\(account.path): unknown column \(Manifest.echoed(hint.unknown)); did you mean \(hint.expected)?"
            }
        }
    }

    /// Writes both kinds of notice to stderr (`dayfold: …`, `dayfold: warning: …`),
    /// control characters escaped as in the manifest.
    public static func report(_ accounts: [FileAccount]) {
        let lines =
            missingColumnLines(accounts).map { "dayfold: " + printable($0) }
            + warnings(accounts).map { "dayfold: warning: " + printable($0) }
        guard !lines.isEmpty else { return }
        FileHandle.standardError.write(Data((lines.joined(separator: "\n") + "\n").utf8))
    }

    /// `text` with its control characters written as `jsonString` writes
    /// them (a terminal must not run an escape sequence from a header).
    static func printable(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) else {
            return text
        }
        return String(jsonString(text).dropFirst().dropLast())
    }
}
