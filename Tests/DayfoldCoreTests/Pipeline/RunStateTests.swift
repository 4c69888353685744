import Foundation
import Testing

@testable import DayfoldCore

/// The state file of `--state` (SPEC §12): read back exactly as written,
/// and any doubt about it — an edit, a truncation, another format, tool,
/// pipeline or time-zone database — is a reason for a full run, never a
/// half-trusted state.
@Suite struct RunStateTests {
    static let state = RunState(
        configDigest: "c0ffee", pipeline: "nightly", asOf: Instant(micros: 1_774_980_000_000_000),
        files: [
            RunState.FileFacts(path: "subjects/relationships.csv", size: 512, modifiedNanoseconds: 17, sha256: "ab"),
            RunState.FileFacts(path: "journal/\"odd\",name.csv", size: 0, modifiedNanoseconds: -5, sha256: ""),
        ], partitionKeys: [String(repeating: "a", count: 64)], build: RunState.currentBuild,
        snapshotBlocks: [
            "adherence_events": SnapshotBlocks(
                path: "/out/snapshots/adherence_events.parquet",
                blocks: [
                    SnapshotBlocks.Block(digest: "d1", rows: 3, rowGroups: 1, written: "w1"),
                    SnapshotBlocks.Block(digest: "d2", rows: 0, rowGroups: 0, written: "w2"),
                ]),
            "other": SnapshotBlocks(path: "/out/\"odd\".parquet", blocks: []),
        ])

    @Test func aStateReadsBackAsWritten() throws {
        let decoded = try RunState.decode(Data(Self.state.encoded().utf8))
        #expect(decoded == Self.state)
    }

    @Test func anEditedStateIsCorrupt() throws {
        let text = Self.state.encoded().replacingOccurrences(of: "\"size\": 512", with: "\"size\": 513")
        #expect(throws: RunState.Unreadable.self) { try RunState.decode(Data(text.utf8)) }
        do {
            _ = try RunState.decode(Data(text.utf8))
        } catch {
            #expect(error.reason.contains("check digest"), "\(error.reason)")
        }
    }

    @Test(arguments: [0, 1, 40, 200])
    func aTruncatedStateIsCorrupt(keep: Int) throws {
        let bytes = Array(Self.state.encoded().utf8)
        let data = Data(bytes.prefix(keep))
        #expect(throws: RunState.Unreadable.self) { try RunState.decode(data) }
    }

    @Test func aStateOfAnotherFormatSaysSo() throws {
        let text = Self.state.encoded().replacingOccurrences(
            of: "\"format\": \(RunState.format)", with: "\"format\": 99")
        do {
            _ = try RunState.decode(Data(text.utf8))
            Issue.record("a state of format 99 was read")
        } catch {
            #expect(error.reason.contains("format 99"), "\(error.reason)")
        }
    }

    /// Blocks are copied only by the build that wrote them: another build
    /// of the same version may encode the same rows otherwise.
    @Test func onlyTheBuildThatWroteTheBlocksMayCopyThem() throws {
        #expect(!RunState.currentBuild.isEmpty)
        #expect(Self.state.copyableBlocks(of: "adherence_events")?.blocks.count == 2)
        #expect(Self.state.copyableBlocks(of: "relationship_days") == nil)
        var other = Self.state
        other.build = String(repeating: "0", count: 64)
        #expect(other.copyableBlocks(of: "adherence_events") == nil)
        other.build = ""
        #expect(other.copyableBlocks(of: "adherence_events") == nil)
        // A changed block entry is an edit like any other.
        let text = Self.state.encoded().replacingOccurrences(of: "\"d1\", 3", with: "\"d1\", 4")
        #expect(text != Self.state.encoded())
        #expect(throws: RunState.Unreadable.self) { try RunState.decode(Data(text.utf8)) }
    }

    @Test func anotherToolPipelineOrZoneDatabaseIsADoubt() {
        #expect(Self.state.doubt(configDigest: "c0ffee") == nil)
        #expect(Self.state.doubt(configDigest: "beef")?.contains("pipeline changed") == true)
        var other = Self.state
        other.toolVersion = "0.0.9"
        #expect(other.doubt(configDigest: "c0ffee")?.contains("dayfold 0.0.9") == true)
        other = Self.state
        other.timeZoneData = "1999z"
        #expect(other.doubt(configDigest: "c0ffee")?.contains("time-zone database") == true)
    }

    /// Published FNV-1a 64 test vectors: the shard and partition hash is
    /// the documented one on every machine, not a seeded language hash.
    @Test func theStableHashIsFNV1a64() {
        #expect(StableAssignment.hash("") == 0xcbf2_9ce4_8422_2325)
        #expect(StableAssignment.hash("a") == 0xaf63_dc4c_8601_ec8c)
        #expect(StableAssignment.hash("foobar") == 0x8594_4171_f739_67e8)
        #expect(StableAssignment.partition(of: "foobar", among: 7) == Int(UInt64(0x8594_4171_f739_67e8) % 7))
    }
}

/// The `--state` folder: kept apart from the drop and the output, replaced
/// whole, and nothing in it but dayfold's own entries is touched.
@Suite struct StateDirectoryTests {
    @Test func aStateInsideTheDropOrAroundTheOutputIsRefused() throws {
        let root = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let drop = root.appendingPathComponent("drop")
        try FileManager.default.createDirectory(at: drop, withIntermediateDirectories: true)
        let output = root.appendingPathComponent("out/run")
        for path in [drop.appendingPathComponent("state").path, drop.path, root.appendingPathComponent("out").path] {
            #expect(throws: DayfoldError.self) { try StateDirectory(path: path, drop: drop.path, output: output.path) }
        }
        #expect(throws: DayfoldError.self) {
            try StateDirectory(
                path: root.appendingPathComponent("no/such/state").path, drop: drop.path, output: output.path)
        }
        let beside = try StateDirectory(
            path: root.appendingPathComponent("state").path, drop: drop.path, output: output.path)
        #expect(beside.path.hasSuffix("/state"))
    }

    @Test func savingReplacesTheStateAndLeavesOtherEntriesAlone() throws {
        let root = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let folder = root.appendingPathComponent("state")
        let directory = try StateDirectory(
            path: folder.path, drop: root.appendingPathComponent("drop").path, output: "/nonexistent/out")
        #expect(
            directory.load(configDigest: "c0ffee")
                == .doubted("no state in \(directory.path) yet (the first run with it)"))
        try directory.save(RunStateTests.state)
        // A user's file, a temporary of a process that is gone, and one of this (live) process.
        try Data("mine".utf8).write(to: folder.appendingPathComponent("notes.txt"))
        let stale = folder.appendingPathComponent(StateDirectory.temporaryName(999_999_999))
        let live = folder.appendingPathComponent(StateDirectory.temporaryName(SystemCall.processID))
        try Data("x".utf8).write(to: stale)
        try Data("y".utf8).write(to: live)
        #expect(directory.load(configDigest: "c0ffee") == .usable(RunStateTests.state))
        #expect(!FileManager.default.fileExists(atPath: stale.path))
        #expect(FileManager.default.fileExists(atPath: live.path))
        var next = RunStateTests.state
        next.files.removeLast()
        try directory.save(next)
        #expect(directory.load(configDigest: "c0ffee") == .usable(next))
        #expect(try String(contentsOf: folder.appendingPathComponent("notes.txt"), encoding: .utf8) == "mine")
        #expect(directory.load(configDigest: "other") != .usable(next))
    }
}

/// Which digests a run takes from its state: only those of files whose
/// size and modification time are unchanged, and none under `--verify-inputs`.
@Suite struct InputDigestPlanTests {
    /// Sets a file's modification time to `nanoseconds` since 1970.
    static func setModified(_ path: String, _ nanoseconds: Int64) {
        var times = [
            timespec(tv_sec: 0, tv_nsec: (1 << 30) - 2),  // UTIME_OMIT: the access time stays
            timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000)),
        ]
        _ = utimensat(AT_FDCWD, path, &times, 0)
    }

    @Test func onlyUnchangedFilesTakeTheirDigestFromTheState() throws {
        let root = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let same = root.appendingPathComponent("same.csv")
        let touched = root.appendingPathComponent("touched.csv")
        let grown = root.appendingPathComponent("grown.csv")
        for url in [same, touched, grown] { try Data("a,b\n1,2\n".utf8).write(to: url) }
        let files = [same, touched, grown].map {
            DropLayout.File(relativePath: $0.lastPathComponent, absolutePath: $0.path)
        }
        func facts(_ url: URL) throws -> RunState.FileFacts {
            let status = try SystemCall.status(url.path)
            return RunState.FileFacts(
                path: url.lastPathComponent, size: status.size, modifiedNanoseconds: status.modifiedNanoseconds,
                sha256: "from-state-\(url.lastPathComponent)")
        }
        let state = RunState(
            configDigest: "c", pipeline: "p", asOf: Instant(micros: 0), files: try [same, touched, grown].map(facts))
        Self.setModified(touched.path, 1_000_000_123)
        try Data("a,b\n1,2\n3,4\n".utf8).write(to: grown)
        let plan = InputDigestPlan(files: files, state: state, verify: false)
        #expect(plan.fromState == ["same.csv"])
        #expect(plan.pathsToHash == [touched.path, grown.path])
        let combined = plan.combine([("t", 8), ("g", 12)])
        #expect(combined.digests.map { $0?.digest } == ["from-state-same.csv", "t", "g"])
        #expect(combined.warnings.isEmpty)
        // The next state keeps every file, with this run's metadata.
        #expect(plan.stateFiles(combined.digests).map(\.sha256) == ["from-state-same.csv", "t", "g"])
    }

    /// Content changed behind an unchanged size and modification time: only
    /// `--verify-inputs` sees it, and says so.
    @Test func verifyInputsHashesEverythingAndNamesAFileThatChangedBehindItsMetadata() throws {
        let root = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let url = root.appendingPathComponent("events.csv")
        try Data("a,b\n1,2\n".utf8).write(to: url)
        let before = try SystemCall.status(url.path)
        let digest = try SHA256Hasher.hex(file: url.path)
        try Data("a,b\n1,3\n".utf8).write(to: url)
        Self.setModified(url.path, before.modifiedNanoseconds)
        let state = RunState(
            configDigest: "c", pipeline: "p", asOf: Instant(micros: 0),
            files: [
                RunState.FileFacts(
                    path: "events.csv", size: before.size, modifiedNanoseconds: before.modifiedNanoseconds,
                    sha256: digest)
            ])
        let files = [DropLayout.File(relativePath: "events.csv", absolutePath: url.path)]
        let trusting = InputDigestPlan(files: files, state: state, verify: false)
        #expect(trusting.pathsToHash.isEmpty)
        let verifying = InputDigestPlan(files: files, state: state, verify: true)
        #expect(verifying.pathsToHash == [url.path])
        #expect(verifying.fromState.isEmpty)
        let combined = verifying.combine([(try SHA256Hasher.hex(file: url.path), 8)])
        #expect(combined.warnings.count == 1)
        #expect(combined.warnings.first?.contains("events.csv") == true)
    }
}
