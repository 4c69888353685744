import DayfoldCore
import Foundation

/// Writes a relationship_days-shaped snapshot of N rows through the Parquet
/// writer, row group by row group, and prints the rows written; run it under
/// `/usr/bin/time -v` for 1M and 10M rows to see that peak memory does not
/// grow with the row count (Benchmarks/snapshot_memory.sh does).
let arguments = CommandLine.arguments
guard arguments.count == 3, let rows = Int(arguments[1]) else {
    FileHandle.standardError.write(Data("usage: snapshot-memory ROWS OUT.parquet\n".utf8))
    exit(2)
}
let fields = [
    ParquetField(name: "relationship_id", type: .string, nullable: false),
    ParquetField(name: "local_date", type: .date, nullable: false),
    ParquetField(name: "timezone", type: .string, nullable: false),
    ParquetField(name: "completed", type: .int64, nullable: false),
    ParquetField(name: "adherence", type: .double, nullable: true),
    ParquetField(name: "day_state", type: .string, nullable: false),
]
let zones = ["Europe/Berlin", "America/Los_Angeles", "Asia/Kolkata", "UTC"]
let states = ["KEPT", "BROKEN", "NEUTRAL", "OPEN"]
let groupRows = 1 << 17
let writer = try ParquetFileWriter(path: arguments[2], fields: fields)
var start = 0
while start < rows {
    let count = min(groupRows, rows - start)
    var ids: [String?] = []
    var dates: [Int32?] = []
    var zoneColumn: [String?] = []
    var completed: [Int64?] = []
    var adherence: [Double?] = []
    var state: [String?] = []
    for offset in 0..<count {
        let row = start + offset
        ids.append("r\(row / 365)")
        dates.append(Int32(20_000 + row % 365))
        zoneColumn.append(zones[row % 4])
        completed.append(Int64(row % 5))
        adherence.append(row % 7 == 0 ? nil : Double(row % 5) / 4)
        state.append(states[row % 4])
    }
    try writer.writeRowGroup([
        .string(ids), .int32(dates), .string(zoneColumn), .int64(completed), .double(adherence), .string(state),
    ])
    start += count
}
try writer.close()
print("rows written: \(rows)")
