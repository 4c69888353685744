import Foundation
import Testing

/// A journal exported as SQLite (table `journal_entries`): the same rules as
/// the CSV journal; `line` is the rowid and `raw` a JSON object of the row.
@Suite struct SQLiteJournalTests {
    @Test func sqliteJournalIsReadWithRowidsAndRevisions() throws {
        let root = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        // The drop beside the output: an output inside the drop is refused (SPEC §10).
        let drop = root.appendingPathComponent("drop")
        try FileManager.default.createDirectory(
            at: drop.appendingPathComponent("journal"), withIntermediateDirectories: true)
        let database = drop.appendingPathComponent("journal/meals.sqlite").path
        // Entry e1: revision 1 then a portion edit (revision 2 wins); e2 deleted by
        // its winning revision; row 5 has a cooked_at without an offset (rejected).
        let script = """
            import sqlite3, sys
            c = sqlite3.connect(sys.argv[1])
            c.execute('CREATE TABLE journal_entries (entry_id TEXT, user_id TEXT, cooked_at TEXT, revision INTEGER, portion REAL, energy_kcal REAL, protein_g REAL, carbs_g REAL, fat_g REAL, deleted INTEGER, recipe_id TEXT, title TEXT, app_build TEXT)')
            rows = [
              ('e1','u1','2026-03-05T12:00:00Z',1,1.0,500,20,60,10,0,None,'Pasta','7'),
              ('e1','u1','2026-03-05T12:00:00Z',2,1.5,500,20,60,10,0,None,'Pasta','7'),
              ('e2','u1','2026-03-05T19:00:00Z',1,None,300,None,None,None,0,None,'Soup','7'),
              ('e2','u1','2026-03-05T19:00:00Z',2,None,300,None,None,None,1,None,'Soup','7'),
              ('e3','u1','2026-03-05 08:00:00',1,None,100,None,None,None,0,None,'Tea','7'),
            ]
            c.executemany('INSERT INTO journal_entries VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)', rows)
            c.commit()
            """
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        python.arguments = ["python3", "-c", script, database]
        try python.run()
        python.waitUntilExit()
        try #require(python.terminationStatus == 0)

        let validate = try DayfoldProcess.run(["validate", drop.path, "--as-of", "2026-03-10T00:00:00Z", "--json"])
        #expect(validate.status == 3, "1 of 5 rows rejected exceeds the default 0.05")
        #expect(
            validate.stdout.contains(
                #"{"path":"journal/meals.sqlite","rows_read":5,"accepted":2,"duplicate":2,"ignored":0,"rejected":1}"#),
            "\(validate.stdout)")
        #expect(
            validate.stdout.contains(
                #""file":"journal/meals.sqlite","line":5,"kind":"journal","reason":"bad_instant:cooked_at""#))

        let out = root.appendingPathComponent("out")
        let run = try DayfoldProcess.run([
            "run", "--input", drop.path, "--output", out.path, "--as-of", "2026-03-10T00:00:00Z", "--debug-tables",
        ])
        #expect(run.status == 3)
        let days = try ReportComparison.readCSV(out.appendingPathComponent("debug/client_days.csv"))
        let energy = try #require(days.header.firstIndex(of: "journal_energy_kcal"))
        let entries = try #require(days.header.firstIndex(of: "journal_entries"))
        let first = try #require(days.rows.first)
        #expect(first[energy] == "750")  // 500 kcal × portion 1.5; the deleted soup is gone
        #expect(first[entries] == "1")
        let rejects = try String(contentsOf: out.appendingPathComponent("rejects/rejects.csv"), encoding: .utf8)
        #expect(rejects.contains(#""{""entry_id"":""e3"",""user_id"":""u1"",""cooked_at"":""2026-03-05 08:00:00"""#))
    }
}
