import Foundation

/// Progress of a long run on stderr, for a person at a terminal: stage,
/// rows, MB/s and an ETA from the share of input bytes read. One line,
/// redrawn at most five times a second; nothing at all when disabled.
public final class ProgressReporter: @unchecked Sendable {
    private let enabled: Bool
    private let totalBytes: Int64
    private let started = Date()
    private var lastDraw = Date.distantPast
    private var stage = ""

    public init(enabled: Bool, totalBytes: Int64) {
        self.enabled = enabled
        self.totalBytes = max(totalBytes, 1)
    }

    public func begin(_ stage: String) {
        guard enabled else { return }
        self.stage = stage
        draw("\(stage)…", force: true)
    }

    /// Called while reading: input bytes done so far (whole files) and rows read.
    func reading(bytesDone: Int64, rows: Int, force: Bool = false) {
        guard enabled else { return }
        let elapsed = Date().timeIntervalSince(started)
        let share = Double(bytesDone) / Double(totalBytes)
        let rate = elapsed > 0 ? Double(bytesDone) / elapsed / 1_000_000 : 0
        let eta = share > 0.01 ? Int(elapsed / share - elapsed) : nil
        let text =
            "\(stage) \(Int(share * 100))% · \(rows) rows · \(String(format: "%.0f", rate)) MB/s"
            + (eta.map { " · ETA \($0) s" } ?? "")
        draw(text, force: force)
    }

    public func finish() {
        guard enabled else { return }
        draw("done in \(String(format: "%.1f", Date().timeIntervalSince(started))) s", force: true)
        FileHandle.standardError.write(Data("\n".utf8))
    }

    private func draw(_ text: String, force: Bool) {
        let now = Date()
        guard force || now.timeIntervalSince(lastDraw) >= 0.2 else { return }
        lastDraw = now
        FileHandle.standardError.write(Data("\r\u{1B}[2Kdayfold: \(text)".utf8))
    }
}
