import Foundation

@testable import DayfoldCore

/// Every entry under a folder, hidden ones included: its relative path,
/// kind, permissions and, for a file, the SHA-256 of its bytes (a link:
/// its target). Two equal snapshots mean not one byte changed, and that
/// nothing was added or removed.
enum TreeSnapshot {
    static func of(_ root: URL) throws -> [String: String] {
        var entries: [String: String] = [:]
        let manager = FileManager.default
        func visit(_ relative: String) throws {
            let path = relative.isEmpty ? root.path : root.path + "/" + relative
            let attributes = try manager.attributesOfItem(atPath: path)
            let mode = (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
            switch attributes[.type] as? FileAttributeType {
            case .typeSymbolicLink?:
                entries[relative] = "link \(try manager.destinationOfSymbolicLink(atPath: path))"
            case .typeDirectory?:
                entries[relative] = "dir \(mode)"
                for name in try manager.contentsOfDirectory(atPath: path) {
                    try visit(relative.isEmpty ? name : relative + "/" + name)
                }
            default:
                entries[relative] = "file \(mode) \(try SHA256Hasher.hex(file: path))"
            }
        }
        try visit("")
        return entries
    }
}

/// A hand-made drop of one client: two daily habits (2026-03-07 done,
/// 2026-03-08 missed). Without `timezones.csv` the client's zone falls back
/// to the task instances' zone, which the manifest warns about.
enum TinyDrop {
    static let asOf = "2026-03-08T12:00:00Z"

    static func write(to drop: URL, timezones: Bool = true) throws {
        var files = [
            "subjects/relationships.csv": """
            relationship_id,client_user_id,coach_user_id,workspace_id,status,started_on,ended_on
            r1,u1,c1,w1,ACTIVE,2026-03-07,

            """,
            "tasks/instances/instances-000.csv": """
            id,relationship_id,local_date,timezone,task_kind,source_key,status,action_schema
            t1,r1,2026-03-07,UTC,HABIT,habit:t1,PENDING,
            t2,r1,2026-03-08,UTC,HABIT,habit:t2,PENDING,

            """,
            "tasks/status_events/events-000.csv": """
            id,daily_task_instance_id,relationship_id,to_status,occurred_at,reason,device_id,client_operation_id
            e1,t1,r1,COMPLETED,2026-03-07T10:00:00Z,,,

            """,
        ]
        if timezones {
            files["subjects/timezones.csv"] = "user_id,timezone,effective_from\nu1,UTC,2020-01-01T00:00:00Z\n"
        }
        for (relative, text) in files {
            let url = drop.appendingPathComponent(relative)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
    }
}
