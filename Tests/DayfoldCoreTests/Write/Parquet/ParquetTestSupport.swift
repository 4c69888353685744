import Foundation

@testable import DayfoldCore

/// A fresh temporary directory per test, removed when the test's scope ends.
final class ParquetTestDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("dayfold-parquet-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }
}

/// A seeded generator so "random" test data is the same on every run.
struct ParquetTestRandom: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}

/// Writes `groups` to a new file and returns its path.
func writeParquetFile(
    in directory: ParquetTestDirectory,
    name: String = "file.parquet",
    fields: [ParquetField],
    groups: [[ParquetColumnData]]
) throws -> String {
    let path = directory.path(name)
    let writer = try ParquetFileWriter(path: path, fields: fields)
    for group in groups { try writer.writeRowGroup(group) }
    try writer.close()
    return path
}

/// One field of every type, all nullable.
let parquetEveryTypeFields = [
    ParquetField(name: "flag", type: .boolean, nullable: true),
    ParquetField(name: "count", type: .int32, nullable: true),
    ParquetField(name: "day", type: .date, nullable: true),
    ParquetField(name: "steps", type: .int64, nullable: true),
    ParquetField(name: "seen_at", type: .timestampMicros, nullable: true),
    ParquetField(name: "ratio", type: .double, nullable: true),
    ParquetField(name: "client_id", type: .string, nullable: true),
]
