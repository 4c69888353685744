import Foundation
import Synchronization
import Testing

@testable import DayfoldCore

/// Progress off a terminal is a log's plain lines (SPEC §10): the reading
/// updates come at most every 5 s, each stage's start and end always.
@Suite struct ProgressReporterTests {
    final class Lines: Sendable {
        private let text = Mutex("")
        func append(_ more: String) { text.withLock { $0 += more } }
        var value: String { text.withLock { $0 } }
    }

    @Test func offATerminalUpdatesAreThrottledToPlainLines() {
        let lines = Lines()
        let progress = ProgressReporter(enabled: true, totalBytes: 1000, terminal: false) { lines.append($0) }
        progress.begin("ingest")
        // A thousand updates within a few milliseconds: none is due yet.
        for done in 1...1000 { progress.reading(bytesDone: Int64(done), rows: done) }
        progress.reading(bytesDone: 1000, rows: 1000, force: true)
        progress.finish()
        let written = lines.value.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(written.count == 4, "\(lines.value)")  // begin, the forced update, done, and the final newline
        #expect(written.first == "dayfold: ingest…")
        #expect(written[1].hasPrefix("dayfold: ingest 100% · 1000 rows"))
        #expect(written[2].hasPrefix("dayfold: done in "))
        #expect(!lines.value.contains("\r") && !lines.value.contains("\u{1B}"))
    }

    @Test func onATerminalTheLineIsRedrawn() {
        let lines = Lines()
        let progress = ProgressReporter(enabled: true, totalBytes: 1000, terminal: true) { lines.append($0) }
        progress.begin("ingest")
        progress.finish()
        #expect(lines.value.hasPrefix("\r\u{1B}[2Kdayfold: ingest…\r\u{1B}[2Kdayfold: done in "))
        #expect(lines.value.hasSuffix(" s\n"))
    }
}
