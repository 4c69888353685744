import Foundation
import Synchronization

/// Progress of a long run on stderr: stage, rows, MB/s and an ETA from the
/// share of input bytes read. On a terminal, one line redrawn at most five
/// times a second; elsewhere (`--progress always` into a log) plain lines,
/// at most one every five seconds besides each stage's start and end, with
/// no `\r` or escape sequence a log would keep (SPEC §10); nothing at all
/// when disabled. The stage and the time of the last line are locked (any
/// thread may report); a disabled reporter returns before taking the lock.
public final class ProgressReporter: Sendable {
    private let enabled: Bool
    private let totalBytes: Int64
    /// Redraw one line (a terminal) rather than append lines (a log).
    private let redraws: Bool
    private let write: @Sendable (String) -> Void
    private let started = Date()
    private let state = Mutex((stage: "", lastDraw: Date.distantPast))

    /// `terminal` defaults to whether stderr is one; `write` (stderr by
    /// default) lets a test see the text.
    public init(
        enabled: Bool, totalBytes: Int64, terminal: Bool = isatty(STDERR_FILENO) != 0,
        write: @escaping @Sendable (String) -> Void = { FileHandle.standardError.write(Data($0.utf8)) }
    ) {
        self.enabled = enabled
        self.totalBytes = max(totalBytes, 1)
        self.redraws = terminal
        self.write = write
    }

    public func begin(_ stage: String) {
        guard enabled else { return }
        state.withLock { $0.stage = stage }
        draw("\(stage)…", force: true)
    }

    /// Called while reading: input bytes done so far (whole files) and rows read.
    func reading(bytesDone: Int64, rows: Int, force: Bool = false) {
        guard enabled else { return }
        let elapsed = Date().timeIntervalSince(started)
        let share = Double(bytesDone) / Double(totalBytes)
        let rate = elapsed > 0 ? Double(bytesDone) / elapsed / 1_000_000 : 0
        let eta = share > 0.01 ? Int(elapsed / share - elapsed) : nil
        let stage = state.withLock { $0.stage }
        let text =
            "\(stage) \(Int(share * 100))% · \(rows) rows · \(String(format: "%.0f", rate)) MB/s"
            + (eta.map { " · ETA \($0) s" } ?? "")
        draw(text, force: force)
    }

    public func finish() {
        guard enabled else { return }
        draw("done in \(String(format: "%.1f", Date().timeIntervalSince(started))) s", force: true)
        if redraws { write("\n") }
    }

    private func draw(_ text: String, force: Bool) {
        let now = Date()
        let due = state.withLock {
            guard force || now.timeIntervalSince($0.lastDraw) >= (redraws ? 0.2 : 5) else { return false }
            $0.lastDraw = now
            return true
        }
        guard due else { return }
        let line = redraws ? "\r\u{1B}[2Kdayfold: \(text)" : "dayfold: \(text)\n"
        write(line)
    }
}
