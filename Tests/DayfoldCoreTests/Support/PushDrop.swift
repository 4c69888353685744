import Foundation

/// A hand-made drop with a `push/` folder (SPEC §11.1), built row by row
/// with named fields, run through the real binary; its push tables read
/// back from `debug/<name>.csv` (NULL as "").
///
/// Defaults: relationship r1 (client u1, coach c1, ACTIVE), u1 in UTC.
struct PushDrop {
    static let installationHeader =
        "id,user_id,app_surface,platform,provider,app_version,timezone,last_seen_at,revoked_at"
    static let intentHeader =
        "id,recipient_user_id,category,idempotency_key,scheduled_for,status,relationship_id,source_context,"
        + "source_record_id,created_at"
    static let deliveryHeader =
        "id,intent_id,installation_id,provider,status,attempt_count,last_error_code,sent_at,delivered_at,failed_at"
    static let receiptHeader = "id,delivery_id,receipt_status,received_at,provider_error_code"
    static let preferenceHeader = "user_id,effective_from,quiet_start,quiet_end"
    static let instanceHeader = "id,relationship_id,local_date,timezone,task_kind,source_key,status"
    static let eventHeader = "id,daily_task_instance_id,relationship_id,to_status,occurred_at"

    /// `relationship_id,client_user_id,coach_user_id,status,started_on,ended_on` rows.
    var relationships = ["r1,u1,c1,ACTIVE,2026-03-01,"]
    /// `user_id,timezone,effective_from` rows.
    var timezones = ["u1,UTC,2026-01-01T00:00:00Z"]
    var installations: [String] = []
    var intents: [String] = []
    var deliveries: [String] = []
    var receipts: [String] = []
    /// nil: no notification_preferences.csv.
    var preferences: [String]?
    var instances: [String] = []
    var events: [String] = []
    /// More files by path (a second export file of a kind, a bad header).
    var extra: [String: String] = [:]

    mutating func installation(
        _ id: String, user: String = "u1", surface: String = "CLIENT_MOBILE", platform: String = "IOS",
        provider: String = "EXPO", version: String = "1.0", timezone: String = "", lastSeenAt: String = "",
        revokedAt: String = ""
    ) {
        installations.append(
            "\(id),\(user),\(surface),\(platform),\(provider),\(version),\(timezone),\(lastSeenAt),\(revokedAt)")
    }

    mutating func intent(
        _ id: String, user: String = "u1", category: String = "MESSAGE", key: String? = nil,
        scheduledFor: String = "2026-03-05T10:00:00Z", status: String = "SENT", relationship: String = "",
        context: String = "", record: String = "", createdAt: String = ""
    ) {
        intents.append(
            "\(id),\(user),\(category),\(key ?? "key-\(id)"),\(scheduledFor),\(status),\(relationship),\(context),"
                + "\(record),\(createdAt)")
    }

    mutating func delivery(
        _ id: String, intent: String, installation: String = "i1", provider: String = "EXPO", status: String = "SENT",
        attempts: String = "1", code: String = "", sentAt: String = "", deliveredAt: String = "", failedAt: String = ""
    ) {
        deliveries.append(
            "\(id),\(intent),\(installation),\(provider),\(status),\(attempts),\(code),\(sentAt),\(deliveredAt),\(failedAt)"
        )
    }

    /// An intent of its own (`n-<id>`, scheduled at the send) and one delivery to it.
    mutating func send(
        _ id: String, user: String = "u1", installation: String = "i1", status: String = "SENT", code: String = "",
        sentAt: String, failedAt: String = ""
    ) {
        intent("n-\(id)", user: user, scheduledFor: sentAt)
        delivery(
            id, intent: "n-\(id)", installation: installation, status: status, code: code, sentAt: sentAt,
            failedAt: failedAt)
    }

    mutating func receipt(_ id: String, delivery: String, status: String, receivedAt: String, code: String = "") {
        receipts.append("\(id),\(delivery),\(status),\(receivedAt),\(code)")
    }

    static func csv(_ header: String, _ rows: [String]) -> String {
        ([header] + rows).map { $0 + "\n" }.joined()
    }

    var files: [String: String] {
        var files = extra
        files["subjects/relationships.csv"] = Self.csv(
            "relationship_id,client_user_id,coach_user_id,status,started_on,ended_on", relationships)
        files["subjects/timezones.csv"] = Self.csv("user_id,timezone,effective_from", timezones)
        files["push/installations/a.csv"] = Self.csv(Self.installationHeader, installations)
        files["push/intents/a.csv"] = Self.csv(Self.intentHeader, intents)
        files["push/deliveries/a.csv"] = Self.csv(Self.deliveryHeader, deliveries)
        files["push/receipts/a.csv"] = Self.csv(Self.receiptHeader, receipts)
        if let preferences {
            files["subjects/notification_preferences.csv"] = Self.csv(Self.preferenceHeader, preferences)
        }
        if !instances.isEmpty { files["tasks/instances/a.csv"] = Self.csv(Self.instanceHeader, instances) }
        if !events.isEmpty { files["tasks/status_events/a.csv"] = Self.csv(Self.eventHeader, events) }
        return files
    }

    /// Runs the drop as of `asOf` and returns its push tables (the drop is removed).
    func run(asOf: String, name: String = #function) throws -> PushTables {
        let drop = try HandMadeDrop(files, name: name)
        defer { drop.remove() }
        let process = try drop.run(asOf: asOf)
        guard process.status == 0 else {
            throw PushDropError(message: "dayfold run exited \(process.status): \(process.stderr)")
        }
        var tables: [String: [[String: String]]] = [:]
        for name in ["push_deliveries", "push_delivery_health", "push_intent_summary", "reminder_effectiveness"] {
            let (header, rows) = try ReportComparison.readCSV(drop.output.appendingPathComponent("debug/\(name).csv"))
            tables[name] = rows.map { row in
                Dictionary(uniqueKeysWithValues: header.enumerated().map { ($0.element, row[$0.offset] ?? "") })
            }
        }
        return PushTables(tables: tables)
    }
}

struct PushDropError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

/// A run's push tables by name, each row by column name (NULL as "").
struct PushTables {
    var tables: [String: [[String: String]]]

    /// `push_deliveries` by `delivery_id`.
    var deliveries: [String: [String: String]] {
        Dictionary(uniqueKeysWithValues: (tables["push_deliveries"] ?? []).map { ($0["delivery_id"] ?? "", $0) })
    }

    /// One column of `push_deliveries`, by `delivery_id`.
    func delivery(_ column: String) -> [String: String] { deliveries.mapValues { $0[column] ?? "<no column>" } }

    /// The rows of a table, in file order.
    func rows(_ name: String) -> [[String: String]] { tables[name] ?? [] }
}
