import Foundation
import Testing

/// SPEC §11.1's row decisions, in §9's order (reject → ignore → duplicate →
/// accepted), on one hand-made drop: the rejects with their lines, each
/// file's accounting (rows_read = accepted + duplicate + ignored +
/// rejected), and which rows the outputs are made of.
@Suite struct PushRowDecisionTests {
    static let asOf = "2026-03-10T12:00:00Z"

    static var drop: PushDrop {
        var push = PushDrop()
        push.relationships = ["r1,u1,c1,ACTIVE,2026-03-01,", "r2,u2,c1,ENDED,2026-03-01,2026-03-05"]
        push.timezones = ["u1,UTC,2026-01-01T00:00:00Z", "u2,Europe/Berlin,2026-01-01T00:00:00Z"]
        push.preferences = [
            "u1,2026-03-01T00:00:00Z,7:30,07:00",  // line 2: one-digit hour → bad_time:quiet_start
            "u1,2026-03-02T00:00:00Z,24:00,07:00",  // line 3: 24:00 is not in 00:00–23:59 → bad_time:quiet_start
            "u1,2026-03-03T00:00:00Z,22:00,07:60",  // line 4: minute 60 → bad_time:quiet_end
            "u1,2026-03-04T00:00:00Z,23:59,00:00",  // line 5: loses to line 6 (the same instant) → duplicate
            "u1,2026-03-04T01:00:00+01:00,00:00,23:59",  // line 6: kept
        ]
        push.installation("i1", version: "1.0")  // line 2: replaced by line 5 → duplicate
        push.installation("i2")  // line 3
        push.installation("i3", user: "u2")  // line 4
        push.installation("i1", version: "2.0")  // line 5: same id, last wins
        push.installation("i4", platform: "WINDOWS")  // line 6: unknown_status:platform
        // line 2: key K again in n2 → duplicate
        push.intent("n1", key: "K", scheduledFor: "2026-03-05T09:00:00Z", relationship: "r1")
        push.intent("n2", key: "K", scheduledFor: "2026-03-05T09:00:00Z", relationship: "r1")  // line 3: kept for K
        // line 4: replaced by line 11 → duplicate
        push.intent("n3", scheduledFor: "2026-03-05T10:00:00Z", relationship: "r1")
        push.intent("n4", scheduledFor: "2026-03-05T11:00:00Z", relationship: "r9")  // line 5: unknown_relationship
        push.intent(  // line 6: created after T → ignored
            "n5", scheduledFor: "2026-03-05T11:00:00Z", relationship: "r1", createdAt: "2026-03-10T12:00:01Z")
        // line 7: 23:30Z is 00:30 on 03-06 in Berlin, after r2's ended_on 03-05 → ignored
        push.intent("n6", user: "u2", scheduledFor: "2026-03-05T23:30:00Z", relationship: "r2")
        // line 8: 22:30Z is 23:30 on 03-05 in Berlin, not after ended_on → accepted
        push.intent("n7", user: "u2", scheduledFor: "2026-03-05T22:30:00Z", relationship: "r2")
        // line 9: unknown_status:status
        push.intent("n8", scheduledFor: "2026-03-05T12:00:00Z", status: "BOGUS", relationship: "r1")
        // line 10: CANCELED accepted
        push.intent("n9", scheduledFor: "2026-03-05T12:00:00Z", status: "CANCELED", relationship: "r1")
        push.intent("n3", scheduledFor: "2026-03-05T10:00:00Z", relationship: "r1")  // line 11: same id as line 4, kept

        push.delivery("dX", intent: "n1", installation: "i1", sentAt: "2026-03-05T09:00:00Z")  // line 2: n1 → n2, kept
        push.delivery("dY", intent: "n2", installation: "i2", sentAt: "2026-03-05T09:01:00Z")  // line 3: kept
        push.delivery("dQ", intent: "nZ", installation: "i1", sentAt: "2026-03-05T09:02:00Z")  // line 4: unknown_intent
        // line 5: unknown_installation
        push.delivery("dR", intent: "n3", installation: "iZ", sentAt: "2026-03-05T10:00:00Z")
        // line 6: i3 is u2's → recipient_mismatch
        push.delivery("dS", intent: "n3", installation: "i3", sentAt: "2026-03-05T10:00:00Z")
        // line 7: rejected though also sent after T: rejects come before ignores
        push.delivery("dT", intent: "n3", installation: "iZ", sentAt: "2026-03-10T12:00:01Z")
        // line 8: of an ignored intent → ignored
        push.delivery("dI6", intent: "n6", installation: "i3", sentAt: "2026-03-05T23:31:00Z")
        // line 9: of an ignored intent → ignored
        push.delivery("dI5", intent: "n5", installation: "i1", sentAt: "2026-03-05T11:00:00Z")
        // line 10: same (n3, i1) as 11 → duplicate
        push.delivery("dL1", intent: "n3", installation: "i1", sentAt: "2026-03-05T10:00:00Z")
        push.delivery("dL2", intent: "n3", installation: "i1", sentAt: "2026-03-05T10:01:00Z")  // line 11: kept
        // line 12: kept (b.csv's copy is after T)
        push.delivery("dRe", intent: "n7", installation: "i3", sentAt: "2026-03-05T22:31:00Z")
        // line 13: unknown_status:provider
        push.delivery("dProv", intent: "n9", installation: "i1", provider: "ONESIGNAL")
        push.delivery("dStat", intent: "n9", installation: "i2", status: "BOUNCED")  // line 14: unknown_status:status
        push.extra["push/deliveries/b.csv"] = PushDrop.csv(
            PushDrop.deliveryHeader,
            [
                // line 2: a re-export sent after T → ignored; a.csv's copy stands
                "dRe,n7,i3,EXPO,DELIVERED,2,,2026-03-10T12:00:01Z,2026-03-10T12:00:02Z,",
                // line 3: its only copy is after T → ignored
                "dLate,n9,i1,EXPO,SENT,1,,2026-03-11T00:00:00Z,,",
            ])

        // line 2: dL1's → the kept dL2's
        push.receipt("x1", delivery: "dL1", status: "OK", receivedAt: "2026-03-05T10:00:05Z")
        // line 3: unknown_delivery
        push.receipt("x2", delivery: "dGhost", status: "OK", receivedAt: "2026-03-05T10:00:05Z")
        // line 4: of an ignored delivery → ignored
        push.receipt("x3", delivery: "dI6", status: "OK", receivedAt: "2026-03-05T23:32:00Z")
        push.receipt("x4", delivery: "dLate", status: "OK", receivedAt: "2026-03-11T00:00:05Z")  // line 5: ignored
        push.receipt(  // line 6: received after T → ignored
            "x5", delivery: "dX", status: "ERROR", receivedAt: "2026-03-10T12:00:01Z", code: "DeviceNotRegistered")
        push.receipt("x6", delivery: "dY", status: "OK", receivedAt: "2026-03-05T09:01:05Z")  // line 7: accepted
        push.receipt(  // line 8: same id: append-only, the first wins → duplicate
            "x6", delivery: "dY", status: "ERROR", receivedAt: "2026-03-05T09:02:00Z", code: "MessageTooBig")
        // line 9: unknown_status:receipt_status
        push.receipt("x7", delivery: "dX", status: "BAD", receivedAt: "2026-03-05T09:00:05Z")
        // line 10: dR was rejected → unknown_delivery
        push.receipt("x8", delivery: "dR", status: "OK", receivedAt: "2026-03-05T10:00:05Z")
        return push
    }

    @Test func rejectsNameTheirLineAndReason() throws {
        let drop = try HandMadeDrop(Self.drop.files)
        defer { drop.remove() }
        let (validate, rejects) = try drop.validate(asOf: Self.asOf)
        #expect(validate.status != 1, "\(validate.stderr)")
        #expect(
            rejects.sorted()
                == [
                    "push/deliveries/a.csv:4 unknown_intent", "push/deliveries/a.csv:5 unknown_installation",
                    "push/deliveries/a.csv:6 recipient_mismatch", "push/deliveries/a.csv:7 unknown_installation",
                    "push/deliveries/a.csv:13 unknown_status:provider",
                    "push/deliveries/a.csv:14 unknown_status:status",
                    "push/installations/a.csv:6 unknown_status:platform", "push/intents/a.csv:5 unknown_relationship",
                    "push/intents/a.csv:9 unknown_status:status", "push/receipts/a.csv:3 unknown_delivery",
                    "push/receipts/a.csv:9 unknown_status:receipt_status", "push/receipts/a.csv:10 unknown_delivery",
                    "subjects/notification_preferences.csv:2 bad_time:quiet_start",
                    "subjects/notification_preferences.csv:3 bad_time:quiet_start",
                    "subjects/notification_preferences.csv:4 bad_time:quiet_end",
                ].sorted(), "\(rejects)")
    }

    /// A row with several bad fields is rejected for the first of them in
    /// column order, whichever thread parsed each (ids, instants and the
    /// relationship are parsed on the file's preparing thread, the rest
    /// where the row is decided; `IntentFields`).
    @Test func aRowIsRejectedForItsFirstBadColumn() throws {
        var push = PushDrop()
        push.installation("i1")
        push.intent("n1")
        let intentHeader =
            "id,recipient_user_id,category,idempotency_key,scheduled_for,status,relationship_id,expires_at,"
            + "cancelled_at,created_at"
        push.extra["push/intents/b.csv"] = PushDrop.csv(
            intentHeader,
            [
                "n2,u1,MESSAGE,k2,2026-03-05T10:00:00Z,SENT,r9,soon,later,never",  // line 2: relationship last
                "n3,u1,MESSAGE,k3,2026-03-05T10:00:00Z,SENT,,2026-03-06,later,never",  // line 3: expires_at
                "n4,u1,MESSAGE,k4,2026-03-05T10:00:00Z,SENT,,,later,never",  // line 4: cancelled_at
                "n5,u1,MESSAGE,k5,2026-03-05T10:00:00Z,SENT,,,,never",  // line 5: created_at
                "n6,u1,BOGUS,k6,tuesday,SENT,,,,",  // line 6: category before scheduled_for
                "n7,u1,MESSAGE,,tuesday,SENT,,,,",  // line 7: idempotency_key before scheduled_for
                ",u1,MESSAGE,,tuesday,SENT,,,,",  // line 8: id first
                "n9,u1,MESSAGE,k9,2026-03-05T10:00:00Z,SENT,r9,,,",  // line 9: only the relationship
            ])
        let deliveryHeader =
            "id,intent_id,installation_id,provider,status,attempt_count,next_retry_at,sent_at,delivered_at,failed_at"
        push.extra["push/deliveries/b.csv"] = PushDrop.csv(
            deliveryHeader,
            [
                "d1,n1,i1,EXPO,SENT,1,soon,then,later,never",  // line 2: next_retry_at
                "d2,n1,i1,EXPO,SENT,1,,then,later,never",  // line 3: sent_at
                "d3,n1,i1,EXPO,SENT,1,,,later,never",  // line 4: delivered_at
                "d4,n1,i1,EXPO,SENT,1,,,,never",  // line 5: failed_at
                "d5,,i1,EXPO,SENT,1,soon,,,",  // line 6: intent_id before next_retry_at
            ])
        push.extra["push/receipts/b.csv"] = PushDrop.csv(
            PushDrop.receiptHeader,
            [
                ",d9,OK,whenever,",  // line 2: id first
                "x2,,OK,whenever,",  // line 3: delivery_id
                "x3,d9,MAYBE,whenever,",  // line 4: receipt_status before received_at
                "x4,d9,OK,whenever,",  // line 5: received_at
            ])
        let drop = try HandMadeDrop(push.files)
        defer { drop.remove() }
        let (_, rejects) = try drop.validate(asOf: Self.asOf)
        #expect(
            rejects.sorted()
                == [
                    "push/intents/b.csv:2 bad_instant:expires_at", "push/intents/b.csv:3 bad_instant:expires_at",
                    "push/intents/b.csv:4 bad_instant:cancelled_at", "push/intents/b.csv:5 bad_instant:created_at",
                    "push/intents/b.csv:6 unknown_status:category",
                    "push/intents/b.csv:7 missing_column:idempotency_key", "push/intents/b.csv:8 missing_column:id",
                    "push/intents/b.csv:9 unknown_relationship",
                    "push/deliveries/b.csv:2 bad_instant:next_retry_at", "push/deliveries/b.csv:3 bad_instant:sent_at",
                    "push/deliveries/b.csv:4 bad_instant:delivered_at", "push/deliveries/b.csv:5 bad_instant:failed_at",
                    "push/deliveries/b.csv:6 missing_column:intent_id",
                    "push/receipts/b.csv:2 missing_column:id", "push/receipts/b.csv:3 missing_column:delivery_id",
                    "push/receipts/b.csv:4 unknown_status:receipt_status",
                    "push/receipts/b.csv:5 bad_instant:received_at",
                ].sorted(), "\(rejects)")
    }

    /// Per file: (rows_read, accepted, duplicate, ignored, rejected), from the line comments above.
    @Test func everyRowIsCountedOnceInItsFile() throws {
        let drop = try HandMadeDrop(Self.drop.files)
        defer { drop.remove() }
        let (validate, _) = try drop.validate(asOf: Self.asOf)
        let object = try JSONSerialization.jsonObject(with: Data(validate.stdout.utf8)) as? [String: Any]
        let files = try #require(object?["files"] as? [[String: Any]])
        var counts: [String: [Int]] = [:]
        for file in files {
            let numbers = ["rows_read", "accepted", "duplicate", "ignored", "rejected"].map {
                (file[$0] as? NSNumber)?.intValue ?? -1
            }
            counts[file["path"] as? String ?? "?"] = numbers
        }
        // 6 kept; 5 duplicate; 2–4 bad_time
        #expect(counts["subjects/notification_preferences.csv"] == [5, 1, 1, 0, 3])
        #expect(counts["push/installations/a.csv"] == [5, 3, 1, 0, 1])  // i1 (line 5), i2, i3; line 2; i4
        #expect(counts["push/intents/a.csv"] == [10, 4, 2, 2, 2])  // n2 n7 n9 n3@11; n1 n3@4; n5 n6; n4 n8
        #expect(counts["push/deliveries/a.csv"] == [13, 4, 1, 2, 6])  // dX dY dL2 dRe; dL1; dI6 dI5; 4 5 6 7 13 14
        #expect(counts["push/deliveries/b.csv"] == [2, 0, 0, 2, 0])  // both sent after T
        #expect(counts["push/receipts/a.csv"] == [9, 2, 1, 3, 3])  // x1 x6; x6 again; x3 x4 x5; x2 x7 x8
    }

    /// The idempotency-key loser's deliveries are the kept intent's *before*
    /// the (intent, installation) test, so one written under the loser can
    /// replace an earlier one written under the winner — and takes its receipts.
    @Test func aDeliveryWrittenUnderTheLosingIntentReplacesTheKeptIntentsEarlierOne() throws {
        var push = PushDrop()
        push.installation("i1")
        push.intent("n1", key: "K")  // loses key K to n2 (last in file order)
        push.intent("n2", key: "K")
        push.delivery("dB", intent: "n2", status: "SENT", sentAt: "2026-03-05T10:00:00Z")  // first on (n2, i1)
        // n1 → n2: last on (n2, i1)
        push.delivery("dA", intent: "n1", status: "DELIVERED", sentAt: "2026-03-05T10:00:01Z")
        push.receipt("xB", delivery: "dB", status: "ERROR", receivedAt: "2026-03-05T10:00:05Z", code: "MessageTooBig")
        let drop = try HandMadeDrop(push.files)
        defer { drop.remove() }
        let (validate, rejects) = try drop.validate(asOf: Self.asOf)
        #expect(rejects.isEmpty, "\(rejects)")
        let object = try JSONSerialization.jsonObject(with: Data(validate.stdout.utf8)) as? [String: Any]
        let deliveries = (object?["files"] as? [[String: Any]] ?? []).first {
            $0["path"] as? String == "push/deliveries/a.csv"
        }
        #expect((deliveries?["accepted"] as? NSNumber)?.intValue == 1)  // dA
        #expect((deliveries?["duplicate"] as? NSNumber)?.intValue == 1)  // dB
        let rows = try push.run(asOf: Self.asOf).deliveries
        #expect(Set(rows.keys) == ["dA"])
        #expect(rows["dA"]?["intent_id"] == "n2")
        // dB's receipt is dA's: rule 1 (ERROR MessageTooBig) overrides dA's status DELIVERED.
        #expect(rows["dA"]?["outcome"] == "FAILED")
        #expect(rows["dA"]?["error_class"] == "payload_too_big")
    }

    @Test func theOutputsAreMadeOfTheKeptRows() throws {
        let tables = try Self.drop.run(asOf: Self.asOf)
        let rows = tables.deliveries
        // Kept deliveries: dX, dY, dL2 (a.csv) and dRe's first copy.
        #expect(Set(rows.keys) == ["dX", "dY", "dL2", "dRe"])
        // dX was n1's: n1 lost key K to n2, so its deliveries are n2's.
        #expect(rows["dX"]?["intent_id"] == "n2")
        #expect(rows["dY"]?["intent_id"] == "n2")
        // i1's last row (line 5) has app_version 2.0.
        #expect(rows["dX"]?["app_version"] == "2.0")
        // dX's only receipt is after T: status SENT → SENT_UNCONFIRMED.
        #expect(rows["dX"]?["outcome"] == "SENT_UNCONFIRMED")
        // x6's first row (OK) stands; the ERROR copy is a duplicate.
        #expect(rows["dY"]?["outcome"] == "DELIVERED")
        // dL1's OK receipt belongs to dL2, which replaced it on (n3, i1).
        #expect(rows["dL2"]?["outcome"] == "DELIVERED")
        #expect(rows["dL2"]?["sent_at"] == "2026-03-05T10:01:00Z")
        // dRe: b.csv's DELIVERED copy was sent after T and is ignored; a.csv's SENT copy stands.
        #expect(rows["dRe"]?["outcome"] == "SENT_UNCONFIRMED")
        #expect(rows["dRe"]?["sent_at"] == "2026-03-05T22:31:00Z")
        #expect(rows["dRe"]?["relationship_id"] == "r2")
        // u1's kept preference (line 6, 00:00–23:59) puts 09:00 and 10:01 in quiet hours; line 5's
        // 23:59–00:00 would not. u2 has no preference row.
        #expect(rows["dX"]?["in_quiet_hours"] == "true")
        #expect(rows["dL2"]?["in_quiet_hours"] == "true")
        #expect(rows["dRe"]?["in_quiet_hours"] == "false")
        // Kept intents, all scheduled on 03-05 UTC: n2, n3, n7, n9. With a delivery: n2, n3, n7;
        // DELIVERED: n2 (dY), n3 (dL2); cancelled: n9 (written CANCELED). No intent left unsent.
        let summary = tables.rows("push_intent_summary")
        #expect(summary.count == 1)
        let row = summary.first ?? [:]
        #expect(row["day"] == "2026-03-05" && row["category"] == "MESSAGE")
        #expect(
            [row["intents"], row["with_delivery"], row["delivered"], row["cancelled"], row["unsent"]]
                == ["4", "3", "2", "1", "0"])
    }
}
