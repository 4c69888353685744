import Foundation
import Testing

@testable import DayfoldCore

/// Per-row work done on a file's preparing thread (`CSVSource.read` with
/// `prepare`) reaches the row it was done for, by the kind's column
/// positions whatever the header's order; rows rejected for their shape
/// never get one; a file that cannot be read still fails through the extra stage.
@Suite struct CSVSourcePrepareTests {
    static let columns = [CSVSource.Column(name: "id", required: true), CSVSource.Column(name: "n", required: false)]

    /// Runs `body` on a source reading `bytes` as a file.
    func withSource(_ bytes: [UInt8], _ body: (CSVSource) throws -> Void) throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("f.csv").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        try body(CSVSource(relativePath: "f.csv", absolutePath: path, kind: "test"))
    }

    func read(_ text: String) throws -> (seen: [(String?, String?)], rejects: [String]) {
        var account = FileAccount(path: "f.csv", kind: "test")
        var rejects: [RejectedRecord] = []
        var seen: [(String?, String?)] = []
        let prepare: @Sendable (CSVPeek) -> String = { row in
            // What the body would read itself: the "n" column's text.
            row.string(1) ?? "NULL"
        }
        try withSource(Array(text.utf8)) { source in
            try source.read(columns: Self.columns, account: &account, rejects: &rejects, prepare: prepare) {
                row, prepared in
                seen.append((prepared, row.slice(1).map { String(decoding: $0, as: UTF8.self) } ?? "NULL"))
            }
        }
        #expect(account.rowsRead == seen.count + rejects.count)
        return (seen, rejects.map(\.reason))
    }

    @Test func eachRowGetsItsOwnPreparedValue() throws {
        // The header lists the columns in another order, with one the kind does not know.
        var text = "extra,n,id\n"
        for row in 0..<20_000 { text += "x,\(row),id-\(row)\n" }
        text += "x,only-two\n"  // wrong field count: rejected, never prepared
        text += "x,,id-last\n"
        let (seen, rejects) = try read(text)
        #expect(seen.count == 20_001)
        #expect(seen.allSatisfy { $0.0 == $0.1 })
        #expect(seen[12_345].0 == "12345")
        #expect(seen.last?.0 == "NULL")
        #expect(rejects == ["bad_row:field_count"])
    }

    @Test func aMissingRequiredColumnRejectsEveryRowUnprepared() throws {
        let (seen, rejects) = try read("n\n1\n2\n")
        #expect(seen.isEmpty)
        #expect(rejects == ["missing_column:id", "missing_column:id"])
    }

    @Test func anUnreadableFileStillFails() throws {
        var text = "id,n\n"
        for row in 0..<50_000 { text += "id-\(row),\(row)\n" }
        var bytes = Array(text.utf8)
        bytes.append(contentsOf: [0x69, 0xFF, 0x2C, 0x31, 0x0A])  // invalid UTF-8 on the last line
        var account = FileAccount(path: "f.csv", kind: "test")
        var rejects: [RejectedRecord] = []
        let prepare: @Sendable (CSVPeek) -> Int = { _ in 1 }
        try withSource(bytes) { source in
            #expect(throws: DayfoldError.self) {
                try source.read(columns: Self.columns, account: &account, rejects: &rejects, prepare: prepare) { _, _ in
                }
            }
        }
    }

    struct Stop: Error {}

    /// A reader that gives up early stops the parser and the preparing
    /// stage too (the call returns instead of waiting on a full channel).
    @Test func aReaderThatStopsEarlyStopsBothStages() throws {
        var text = "id,n\n"
        for row in 0..<200_000 { text += "id-\(row),\(row)\n" }
        var account = FileAccount(path: "f.csv", kind: "test")
        var rejects: [RejectedRecord] = []
        let prepare: @Sendable (CSVPeek) -> Int = { _ in 1 }
        var rows = 0
        try withSource(Array(text.utf8)) { source in
            #expect(throws: Stop.self) {
                try source.read(columns: Self.columns, account: &account, rejects: &rejects, prepare: prepare) { _, _ in
                    rows += 1
                    if rows == 5 { throw Stop() }
                }
            }
        }
        #expect(rows == 5)
    }
}
