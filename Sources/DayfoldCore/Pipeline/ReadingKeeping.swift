import Foundation
import Synchronization

/// What a whole run with `--state` does with the drop's reading (issue 21;
/// Decisions.md, "A run with a state keeps the drop's reading, and reads
/// it back when it holds"): whether it may read the reading the previous
/// run kept (`ReadingArchive`) instead of the drop, or resume it with the
/// drop's new files (`ReadingResumption`), and whether it keeps its own for
/// the next run (when its files are the state's, or the state's and new
/// ones), written beside the facts and named in the state once the
/// outputs are published.
///
/// The kept reading is read back only when the drop it was read from is
/// the drop now (every input file known to the state, with its size and
/// modification time unchanged, none added or removed), and resumed when
/// the drop is that drop and new files; in both cases the build and the
/// state's header must be the same, and the run's as-of must read it the
/// same way (`RunState.Reading.holds`). Anything else, a new file that
/// would change a kept decision (`ResumeRefusal`), or a kept file that
/// does not read back whole, means the drop is read, and the manifest
/// says why.
final class ReadingKeeping: Sendable {
    private let directory: StateDirectory
    /// The kept reading this run may read instead of the drop.
    let reusable: RunState.Reading?
    /// The kept reading this run may resume: every file it was read from
    /// is here unchanged, and there are new ones (`ReadingResumption`).
    private let resumable: RunState.Reading?
    /// How many input files are new since the state was written.
    private let added: Int
    /// Why the kept reading is not used (nil: it is, or there was no state to use).
    private let notReused: String?
    /// Whether this run keeps its reading for the next one because its
    /// files are the state's (see `init`; a run that may resume keeps one
    /// too, `mayKeep`).
    private let keepsReading: Bool
    private let asOf: Instant
    private let outcome = Mutex<Outcome>(Outcome())
    /// This run's reading and the tables it was decided with, from the end
    /// of its ingest to the keep (`hold`, `keep`). The keep's references
    /// are its own, not a stage's input: a stage's input stays referenced
    /// until its body returns, and the keep lets each large piece go once
    /// it is written (the tables go whole; the rows only the facts read
    /// then go as soon as the facts, too, are done with them).
    private let held = Mutex<(drop: IngestedDrop, tables: ReadingTables?)?>(nil)
    /// Signalled once ingest ends, whether it read or failed (`ingestEnded`).
    private let ingestDone = DispatchSemaphore(value: 0)

    private struct Outcome {
        /// The kept reading was read back and used.
        var reused = false
        /// The kept reading was resumed: the new files were read on top of it.
        var resumed = false
        /// Why the kept reading could not be resumed (`ResumeRefusal`).
        var refusal: String?
        /// Why reading it back failed.
        var failure: String?
        /// The reading this run wrote for the next one, not yet named in
        /// the state: its rows' and its tables' temporary files.
        var written: (temporary: String, tables: String?, record: RunState.Reading)?
    }

    /// `files`: the drop's files; `digests`: which of them the state knows unchanged.
    init(state: StateContext, files: [DropLayout.File], digests: InputDigestPlan, verify: Bool, asOf: Instant) {
        directory = state.directory
        self.asOf = asOf
        let kept = state.usable?.reading
        var why: String?
        var unchanged = false
        var onlyAdded = false
        var added = 0
        if let previous = state.usable {
            let known = digests.fromState
            unchanged = files.map(\.relativePath) == previous.files.map(\.path) && known.count == files.count
            if !unchanged {
                let changed = files.count(where: { !known.contains($0.relativePath) })
                let present = Set(files.map(\.relativePath))
                let gone = Set(previous.files.map(\.path)).subtracting(present).count
                // Every file the state knows is here unchanged: the others are new.
                onlyAdded = gone == 0 && previous.files.allSatisfy { known.contains($0.path) }
                added = changed
                why =
                    "\(changed) input files are new or changed" + (gone > 0 ? " and \(gone) are gone" : "")
                    + " since the state was written"
            }
        }
        self.added = added
        // A reading is kept by a run whose files are the state's (the next
        // run may read it back) or the state's and new ones (the next night
        // may resume it): one whose kept files changed or went would keep
        // it for nothing.
        keepsReading = unchanged && !verify
        var resumable: RunState.Reading?
        if onlyAdded, let previous = state.usable, let kept, previous.build == RunState.currentBuild, !verify,
            kept.holds(asOf: asOf)
        {
            // Read on top of the kept reading (`readResumable`); the reason
            // stays for a refusal to complete.
            resumable = kept
        }
        self.resumable = resumable
        if why == nil, let previous = state.usable, let kept {
            if previous.build != RunState.currentBuild {
                why = "the kept reading is of another build of dayfold"
            } else if verify {
                why = "--verify-inputs reads every input"
            } else if !kept.holds(asOf: asOf) {
                let window = kept.window
                why =
                    window.latestNotAfter.map { asOf < $0 } ?? false
                    ? "the kept reading, as of \(kept.asOf), holds a row at \(window.latestNotAfter?.description ?? "")"
                        + ", after this as-of"
                    : "the kept reading, as of \(kept.asOf), ignored a row at \(window.earliestAfter?.description ?? "")"
                        + ", not after this as-of"
            }
        } else if why == nil, state.usable != nil {
            why = "the state keeps no reading; this run keeps one"
        }
        notReused = why
        reusable = why == nil ? kept : nil
    }

    /// The kept reading's file.
    func path(of reading: RunState.Reading) -> String { path(reading.file) }

    private func path(_ name: String) -> String { (directory.path as NSString).appendingPathComponent(name) }

    /// Whether this run may keep its reading (its ingest then keeps the
    /// tables a resumed reading needs, `ReadingTables`).
    var mayKeep: Bool { keepsReading || resumable != nil }

    /// The kept reading with its tables, to resume with the new
    /// files; nil (with the reason recorded) when there is none to resume
    /// or it does not read back whole. The rows and the tables are two
    /// files, read side by side (the tables' task ids are the rows').
    func readResumable() -> ReadingResumption? {
        guard let resumable else { return nil }
        guard let tablesFile = resumable.tablesFile else {
            outcome.withLock { $0.refusal = "the kept reading keeps no tables" }
            return nil
        }
        do {
            var rows: (drop: IngestedDrop, tablesCheck: String?)?
            let stored = try SideBySide.run(
                path(tablesFile), side: { try ReadingArchive.readTables(from: $0) },
                here: { rows = try ReadingArchive.read(from: path(of: resumable)) })
            guard let rows, rows.tablesCheck == stored.check else {
                throw BinaryArchiveError(reason: "its tables are not the ones its rows were kept with")
            }
            return ReadingResumption(kept: rows.drop, tables: try stored.tables.resolved(taskIDs: rows.drop.taskIDs))
        } catch {
            outcome.withLock { $0.failure = (error as? BinaryArchiveError)?.reason ?? "\(error)" }
            return nil
        }
    }

    /// The kept reading was resumed: this run's reading is its and the new files'.
    func noteResumed() { outcome.withLock { $0.resumed = true } }

    /// The kept reading could not be resumed, for `reason`: the drop was read whole.
    func noteRefused(_ reason: String) { outcome.withLock { $0.refusal = reason } }

    /// The kept reading, read back; nil (with the reason recorded) when it
    /// does not read back whole.
    func readKept() -> IngestedDrop? {
        guard let reusable else { return nil }
        do throws(BinaryArchiveError) {
            let drop = try ReadingArchive.read(from: path(of: reusable)).drop
            outcome.withLock { $0.reused = true }
            return drop
        } catch {
            outcome.withLock { $0.failure = error.reason }
            return nil
        }
    }

    /// Takes `drop`'s tables (`IngestedDrop.readingTables`) into this
    /// keeping, with a reference to its rows, for `keep` to write: every
    /// stage after ingest reads a copy of the drop, and one of them holding
    /// the tables kept about 220 MB (on the 1.1 GB drop) alive until the
    /// facts were done.
    func hold(_ drop: inout IngestedDrop) {
        let tables = drop.readingTables
        drop.readingTables = nil
        let rows = drop
        held.withLock { $0 = (rows, tables) }
    }

    /// Ingest is over (read, read back, or failed): `keep` goes on.
    func ingestEnded() { ingestDone.signal() }

    /// Waits for ingest to end, then writes the reading `hold` took (this
    /// run's, as of its as-of) and its tables for the next run (temporary
    /// files, named by `commit`). The tables go first, and each piece is
    /// let go once written: the facts, running beside, grow meanwhile.
    /// Nothing is written when ingest held nothing (it failed, or read the
    /// kept reading back). A failure is a warning: the next run reads the
    /// drop.
    func keep() -> [String] {
        ingestDone.wait()
        guard var (drop, tables) = held.withLock({ $0.take() }) else { return [] }
        // A run that could resume keeps its reading whether it did or read
        // the drop whole: the next night resumes it.
        if outcome.withLock({ $0.reused }) || !mayKeep { return [] }
        let temporary = path(".reading.\(SystemCall.processID).tmp")
        let tablesTemporary = path(".tables.\(SystemCall.processID).tmp")
        do {
            try directory.makeFolder()
            var tablesCheck: String?
            if let kept = tables.take() {
                tablesCheck = try ReadingArchive.writeTables(consume kept, to: tablesTemporary).check
            }
            debugRSS("keep: tables written")
            let (size, check) = try ReadingArchive.write(&drop, tablesCheck: tablesCheck, to: temporary)
            let record = RunState.Reading(
                file: "reading-\(check).bin", size: Int64(size), check: check, asOf: asOf,
                window: drop.asOfWindow, tablesFile: tablesCheck.map { "tables-\($0).bin" })
            outcome.withLock { $0.written = (temporary, tablesCheck == nil ? nil : tablesTemporary, record) }
            debugRSS("keep: rows written")
            return []
        } catch {
            try? FileManager.default.removeItem(atPath: tablesTemporary)
            try? FileManager.default.removeItem(atPath: temporary)
            return ["keeping the drop's reading in the state failed (\(error)); the next run reads the drop"]
        }
    }

    /// The reading the state names after this run: the kept one when it was
    /// used, this run's once moved to its names, or none.
    func commit() -> RunState.Reading? {
        let state = outcome.withLock { state in
            defer { state.written = nil }
            return state
        }
        if state.reused { return reusable }
        guard let written = state.written else { return nil }
        do {
            if let tables = written.tables, let name = written.record.tablesFile {
                try SystemCall.rename(tables, path(name))
            }
            try SystemCall.rename(written.temporary, path(of: written.record))
            return written.record
        } catch {
            for temporary in [written.temporary, written.tables].compactMap({ $0 }) {
                try? FileManager.default.removeItem(atPath: temporary)
            }
            return nil
        }
    }

    /// Removes this run's reading when it is not to be named (a failed run:
    /// the state stays as it was, file for file).
    func discardUncommitted() {
        let written = outcome.withLock { state in
            defer { state.written = nil }
            return state.written
        }
        guard let written else { return }
        for temporary in [written.temporary, written.tables].compactMap({ $0 }) {
            try? FileManager.default.removeItem(atPath: temporary)
        }
    }

    /// Removes the readings (rows and tables) the saved state does not
    /// name, and temporaries of runs that are gone. Only names this type
    /// writes are considered.
    static func removeUnreferenced(in directory: StateDirectory, keeping named: RunState.Reading?) {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return }
        let keep = Set([named?.file, named?.tablesFile].compactMap { $0 })
        for entry in entries {
            let stale: Bool
            if (entry.hasPrefix("reading-") || entry.hasPrefix("tables-")) && entry.hasSuffix(".bin") {
                stale = !keep.contains(entry)
            } else if let pid = temporaryOwner(entry) {
                stale = pid == SystemCall.processID || !SystemCall.isAlive(pid)
            } else {
                stale = false
            }
            if stale {
                try? FileManager.default.removeItem(atPath: (directory.path as NSString).appendingPathComponent(entry))
            }
        }
    }

    /// The process that writes `entry`, if it is one of this type's
    /// temporaries (`.reading.<pid>.tmp`, `.tables.<pid>.tmp`).
    private static func temporaryOwner(_ entry: String) -> Int32? {
        guard entry.hasSuffix(".tmp") else { return nil }
        for prefix in [".reading.", ".tables."] where entry.hasPrefix(prefix) {
            return Int32(entry.dropFirst(prefix.count).dropLast(".tmp".count))
        }
        return nil
    }

    /// The manifest's word on the reading: what was reused, or why the drop was read.
    var text: String? {
        let state = outcome.withLock { $0 }
        if state.reused, let reusable {
            return "the drop's reading was kept from the run as of \(reusable.asOf) (every input file unchanged)"
        }
        if state.resumed, let resumable {
            return "the drop's reading was kept from the run as of \(resumable.asOf), and the \(added) new input "
                + "files were read on top of it"
        }
        if let failure = state.failure { return "the drop is read whole (the kept reading: \(failure))" }
        if let refusal = state.refusal {
            return "the drop is read whole (the kept reading cannot be resumed: \(refusal))"
        }
        return notReused.map { "the drop is read whole (\($0))" }
    }

    /// Whether the kept reading was used: read back, or resumed.
    var reused: Bool { outcome.withLock { $0.reused || $0.resumed } }
}
