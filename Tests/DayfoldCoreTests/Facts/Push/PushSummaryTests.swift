import Foundation
import Testing

/// SPEC §11.3's three summaries, each on a hand-made drop with every count
/// worked out by hand: push_delivery_health (groups, outcome counts,
/// delivery_rate NULL when sent = 0), push_intent_summary (unsent,
/// cancelled …), reminder_effectiveness (reminded tasks, rates NULL when
/// their denominator is 0 — never 0 %).
@Suite struct PushSummaryTests {
    static let asOf = "2026-03-10T12:00:00Z"

    static let healthColumns = [
        "deliveries", "sent", "delivered", "sent_unconfirmed", "pending", "failed", "failed_token_invalid",
        "failed_payload_too_big", "failed_rate_limited", "failed_credentials", "failed_sender_mismatch",
        "failed_transient", "failed_other", "delivery_rate", "sent_in_quiet_hours", "sent_after_task_done",
        "sent_to_invalid_token",
    ]

    static func key(_ row: [String: String], _ columns: [String]) -> String {
        columns.map { row[$0] ?? "<none>" }.joined(separator: "|")
    }

    @Test func deliveryHealthCountsEveryDeliveryOfItsGroup() throws {
        var push = PushDrop()
        push.preferences = ["u1,2026-01-01T00:00:00Z,22:00,07:00"]
        push.installation("iA")
        push.installation("iN", version: "")  // app_version NULL: a group of its own
        push.installation("iF", platform: "ANDROID", provider: "FCM")  // the delivery's provider says EXPO
        // Group (03-05, EXPO, IOS, CLIENT_MOBILE, 1.0, MESSAGE):
        push.send("h1", installation: "iA", status: "DELIVERED", sentAt: "2026-03-05T09:00:00Z")
        push.send("h2", installation: "iA", status: "SENT", sentAt: "2026-03-05T09:01:00Z")
        push.send("h3", installation: "iA", status: "THROTTLED", sentAt: "2026-03-05T09:02:00Z")
        push.intent("n-h4", scheduledFor: "2026-03-05T09:03:00Z", status: "READY")
        push.delivery("h4", intent: "n-h4", installation: "iA", status: "PENDING")
        // DELIVERED but never sent (sent_at NULL), scheduled in quiet hours: not in `sent`, nor in the rate.
        push.intent("n-h5", scheduledFor: "2026-03-05T23:30:00Z")
        push.delivery("h5", intent: "n-h5", installation: "iA", status: "DELIVERED")
        push.send("h6", installation: "iA", status: "FAILED", code: "Weird", sentAt: "2026-03-05T09:05:00Z")
        push.send("h12", installation: "iA", status: "DELIVERED", sentAt: "2026-03-05T06:59:59Z")  // quiet hours
        // Group (03-05, EXPO, IOS, CLIENT_MOBILE, 1.0, WORKOUT_DUE): a receipt's ERROR.
        push.intent("n-h8", category: "WORKOUT_DUE", scheduledFor: "2026-03-05T10:00:00Z")
        push.delivery("h8", intent: "n-h8", installation: "iA", sentAt: "2026-03-05T10:00:00Z")
        push.receipt(
            "x8", delivery: "h8", status: "ERROR", receivedAt: "2026-03-05T10:00:05Z", code: "MismatchSenderId")
        // Group (03-05, EXPO, IOS, CLIENT_MOBILE, NULL, MESSAGE): nothing sent.
        push.intent("n-h7", scheduledFor: "2026-03-05T09:00:00Z", status: "READY")
        push.delivery("h7", intent: "n-h7", installation: "iN", status: "PENDING")
        // Day is the UTC date of sent_at (03-06), not of scheduled_for (03-05).
        push.intent("n-h9", scheduledFor: "2026-03-05T23:00:00Z")
        push.delivery("h9", intent: "n-h9", installation: "iA", status: "DELIVERED", sentAt: "2026-03-06T00:10:00Z")
        // Unsent: the UTC date of scheduled_for, 04:30Z on 03-07 (the written offset's date is 03-06).
        push.intent("n-h10", scheduledFor: "2026-03-06T23:30:00-05:00", status: "READY")
        push.delivery("h10", intent: "n-h10", installation: "iA", status: "PENDING")
        // Provider from the delivery (EXPO), platform from the installation (ANDROID).
        push.send("h11", installation: "iF", status: "SENT", sentAt: "2026-03-05T12:00:00Z")

        let tables = try push.run(asOf: Self.asOf)
        let keys = ["day", "provider", "platform", "app_surface", "app_version", "category"]
        let rows = tables.rows("push_delivery_health")
        let byKey = Dictionary(uniqueKeysWithValues: rows.map { (Self.key($0, keys), $0) })
        // Columns as in healthColumns: deliveries … delivery_rate, quiet, after done, invalid token.
        let expected: [String: [String]] = [
            // h11 alone: sent and SENT_UNCONFIRMED → rate 0/1 = 0 (a value, not NULL)
            "2026-03-05|EXPO|ANDROID|CLIENT_MOBILE|1.0|MESSAGE":
                ["1", "1", "0", "1", "0", "0", "0", "0", "0", "0", "0", "0", "0", "0", "0", "0", "0"],
            // h1 h2 h3 h4 h5 h6 h12: sent h1 h2 h3 h6 h12 = 5; DELIVERED h1 h5 h12 = 3; h2 unconfirmed;
            // h4 pending; FAILED h3 (rate_limited) h6 (other); rate = sent∧DELIVERED (h1, h12) / 5 = 0.4;
            // quiet hours: h12 (06:59:59 UTC) — h5 (23:30) was not sent
            "2026-03-05|EXPO|IOS|CLIENT_MOBILE|1.0|MESSAGE":
                ["7", "5", "3", "1", "1", "2", "0", "0", "1", "0", "0", "0", "1", "0.4", "1", "0", "0"],
            // h8: ERROR MismatchSenderId → FAILED/sender_mismatch; rate 0/1
            "2026-03-05|EXPO|IOS|CLIENT_MOBILE|1.0|WORKOUT_DUE":
                ["1", "1", "0", "0", "0", "1", "0", "0", "0", "0", "1", "0", "0", "0", "0", "0", "0"],
            // h7: pending, sent = 0 → delivery_rate NULL
            "2026-03-05|EXPO|IOS|CLIENT_MOBILE||MESSAGE":
                ["1", "0", "0", "0", "1", "0", "0", "0", "0", "0", "0", "0", "0", "", "0", "0", "0"],
            // h9: sent 00:10 UTC, DELIVERED → rate 1; 00:10 is inside 22:00–07:00
            "2026-03-06|EXPO|IOS|CLIENT_MOBILE|1.0|MESSAGE":
                ["1", "1", "1", "0", "0", "0", "0", "0", "0", "0", "0", "0", "0", "1", "1", "0", "0"],
            // h10: pending, sent = 0 → delivery_rate NULL
            "2026-03-07|EXPO|IOS|CLIENT_MOBILE|1.0|MESSAGE":
                ["1", "0", "0", "0", "1", "0", "0", "0", "0", "0", "0", "0", "0", "", "0", "0", "0"],
        ]
        #expect(Set(byKey.keys) == Set(expected.keys), "\(byKey.keys.sorted())")
        for (key, values) in expected {
            let row = byKey[key] ?? [:]
            #expect(Self.healthColumns.map { row[$0] ?? "<none>" } == values, "\(key)")
        }
        // Sorted by the six keys (the NULL app_version group's place is left open: the SPEC names none).
        let order = rows.map { Self.key($0, keys) }.filter { !$0.contains("||") }
        #expect(
            order == [
                "2026-03-05|EXPO|ANDROID|CLIENT_MOBILE|1.0|MESSAGE", "2026-03-05|EXPO|IOS|CLIENT_MOBILE|1.0|MESSAGE",
                "2026-03-05|EXPO|IOS|CLIENT_MOBILE|1.0|WORKOUT_DUE", "2026-03-06|EXPO|IOS|CLIENT_MOBILE|1.0|MESSAGE",
                "2026-03-07|EXPO|IOS|CLIENT_MOBILE|1.0|MESSAGE",
            ])
        // push_deliveries: the day column follows the same rule.
        let day = tables.delivery("day")
        #expect(day["h9"] == "2026-03-06" && day["h10"] == "2026-03-07" && day["h5"] == "2026-03-05")
        #expect(tables.delivery("provider")["h11"] == "EXPO" && tables.delivery("platform")["h11"] == "ANDROID")
        // push_deliveries sorts by (day, delivery_id), ids as bytes: "h1" < "h11" < "h12" < "h2".
        #expect(
            tables.rows("push_deliveries").map { $0["delivery_id"] ?? "" } == [
                "h1", "h11", "h12", "h2", "h3", "h4", "h5", "h6", "h7", "h8",  // 2026-03-05
                "h9",  // 2026-03-06
                "h10",  // 2026-03-07
            ])
    }

    @Test func intentSummaryCountsUnsentCancelledExpiredAndSuppressed() throws {
        var push = PushDrop()
        push.installation("i1")
        push.installation("i2")
        push.intent("s1", scheduledFor: "2026-03-05T10:00:00Z", status: "SCHEDULED")  // no delivery, due → unsent
        push.intent("s2", scheduledFor: "2026-03-05T11:00:00Z", status: "READY")
        push.delivery("d2", intent: "s2", status: "PENDING")  // a delivery, even unsent: not unsent
        push.intent("s3", scheduledFor: "2026-03-05T12:00:00Z", status: "SENT")
        push.delivery("d3", intent: "s3", status: "DELIVERED", sentAt: "2026-03-05T12:00:01Z")
        push.intent("s4", scheduledFor: "2026-03-05T10:00:00Z", status: "CANCELLED")
        push.intent("s5", scheduledFor: "2026-03-05T10:00:00Z", status: "CANCELED")  // the US spelling counts too
        push.intent("s6", scheduledFor: "2026-03-05T10:00:00Z", status: "EXPIRED")
        push.intent("s7", scheduledFor: "2026-03-05T10:00:00Z", status: "SUPPRESSED")
        push.delivery("d7", intent: "s7", status: "SENT", sentAt: "2026-03-05T10:00:00Z")
        push.intent("s12", scheduledFor: "2026-03-05T14:00:00Z", status: "SENT")
        push.delivery("d12a", intent: "s12", installation: "i1", status: "FAILED", sentAt: "2026-03-05T14:00:00Z")
        push.delivery("d12b", intent: "s12", installation: "i2", status: "DELIVERED", sentAt: "2026-03-05T14:00:00Z")
        push.intent("s10", category: "FORM_DUE", scheduledFor: "2026-03-05T13:00:00Z", status: "READY")
        push.delivery("d10", intent: "s10", status: "FAILED", sentAt: "2026-03-05T13:00:00Z")
        push.intent("s11", scheduledFor: "2026-03-05T23:30:00-05:00", status: "SCHEDULED")  // 04:30Z on 03-06
        push.intent("s8", scheduledFor: "2026-03-10T12:00:00Z", status: "SCHEDULED")  // == T: due → unsent
        push.intent("s9", scheduledFor: "2026-03-10T12:00:01Z", status: "SCHEDULED")  // after T: not yet unsent

        let rows = try push.run(asOf: Self.asOf).rows("push_intent_summary")
        let columns = [
            "day", "category", "intents", "with_delivery", "delivered", "cancelled", "expired", "suppressed",
            "unsent",
        ]
        #expect(
            rows.map { Self.key($0, columns) } == [
                // s10: a FAILED delivery → with_delivery 1, delivered 0
                "2026-03-05|FORM_DUE|1|1|0|0|0|0|0",
                // s1 s2 s3 s4 s5 s6 s7 s12; with a delivery s2 s3 s7 s12; DELIVERED s3, s12 (one intent,
                // though one of its two deliveries failed); cancelled s4 s5; expired s6; suppressed s7; unsent s1
                "2026-03-05|MESSAGE|8|4|2|2|1|1|1",
                // s11: day is the UTC date of scheduled_for
                "2026-03-06|MESSAGE|1|0|0|0|0|0|1",
                // s8 (scheduled_for = T) is unsent; s9 (after T) is not
                "2026-03-10|MESSAGE|2|0|0|0|0|0|1",
            ])
    }

    /// Relationship r1's window is the 30 local dates ending at L = today − 2
    /// = 2026-03-08 (today 03-10 in UTC): 2026-02-07 … 2026-03-08.
    @Test func reminderEffectivenessSplitsScoredTasksByADeliveredReminderBeforeTheDeadline() throws {
        var push = PushDrop()
        push.relationships = [
            "r1,u1,c1,ACTIVE,2026-02-01,", "r2,u2,c1,ACTIVE,2026-02-01,", "r3,u3,c2,ACTIVE,2026-02-01,",
            "r4,u4,c2,ACTIVE,2026-02-01,",
        ]
        push.timezones = ["u1", "u2", "u3", "u4"].map { "\($0),UTC,2026-01-01T00:00:00Z" }
        push.installation("i1")
        push.installation("i1b")
        push.installation("i3", user: "u3")
        func task(_ id: String, _ relationship: String, _ date: String, key: String? = nil) {
            push.instances.append("\(id),\(relationship),\(date),UTC,HABIT,\(key ?? "k-\(id)"),PENDING")
        }
        func event(_ task: String, _ status: String, _ at: String, relationship: String = "r1") {
            push.events.append("e-\(task),\(task),\(relationship),\(status),\(at)")
        }
        func reminder(
            _ delivery: String, task: String, installation: String = "i1", user: String = "u1",
            relationship: String = "r1", status: String = "DELIVERED", context: String = "DAILY_EXECUTION",
            sentAt: String
        ) {
            let intent = "n-\(task)-\(context)"
            if !push.intents.contains(where: { $0.hasPrefix("\(intent),") }) {
                push.intent(
                    intent, user: user, category: "CHECK_IN_DUE", scheduledFor: sentAt, relationship: relationship,
                    context: context, record: task)
            }
            push.delivery(delivery, intent: intent, installation: installation, status: status, sentAt: sentAt)
        }
        task("t1", "r1", "2026-03-05")
        event("t1", "COMPLETED", "2026-03-05T09:30:00Z")
        reminder("d1", task: "t1", sentAt: "2026-03-05T09:00:00Z")  // done 30 min after: within 2 h
        task("t2", "r1", "2026-03-06")
        event("t2", "COMPLETED", "2026-03-06T11:00:00Z")
        reminder("d2a", task: "t2", sentAt: "2026-03-06T09:00:00Z")  // the earliest send: 11:00 = s + 2 h, not within
        reminder("d2b", task: "t2", installation: "i1b", sentAt: "2026-03-06T10:30:00Z")
        task("t3", "r1", "2026-03-07")  // no event: MISSED (deadline 03-09 00:00 <= T)
        reminder("d3", task: "t3", sentAt: "2026-03-07T09:00:00Z")
        task("t4", "r1", "2026-03-04")
        event("t4", "COMPLETED", "2026-03-04T08:00:00Z")
        reminder("d4", task: "t4", sentAt: "2026-03-04T09:00:00Z")  // after the task was done: wasted, not a reminder
        task("t5", "r1", "2026-03-03")
        event("t5", "SKIPPED", "2026-03-03T10:00:00Z")
        reminder("d5", task: "t5", status: "SENT", sentAt: "2026-03-03T09:00:00Z")  // SENT_UNCONFIRMED: not DELIVERED
        task("t6", "r1", "2026-03-02")
        event("t6", "COMPLETED", "2026-03-02T10:00:00Z")
        reminder("d6a", task: "t6", status: "FAILED", sentAt: "2026-03-02T09:00:00Z")  // FAILED: not a reminder
        reminder("d6b", task: "t6", installation: "i1b", status: "SENT", sentAt: "2026-03-02T11:00:00Z")  // wasted
        task("t8", "r1", "2026-03-01")  // MISSED; deadline 03-03 00:00Z
        reminder("d8", task: "t8", sentAt: "2026-03-03T00:30:00Z")  // after the deadline: not a reminder
        task("t9", "r1", "2026-03-08")
        event("t9", "COMPLETED", "2026-03-08T10:00:00Z")
        reminder("d9", task: "t9", context: "COACH_NOTE", sentAt: "2026-03-08T09:00:00Z")  // not DAILY_EXECUTION
        // t10-old and t10 share an idempotency key: t10 (later) is kept, and the reminder naming t10-old is t10's.
        task("t10-old", "r1", "2026-03-08", key: "k10")
        task("t10", "r1", "2026-03-08", key: "k10")
        event("t10", "COMPLETED", "2026-03-08T12:00:00Z")
        reminder("d10", task: "t10-old", sentAt: "2026-03-08T11:00:00Z")  // within 2 h
        task("t11", "r1", "2026-02-06")  // the day before window_from
        event("t11", "COMPLETED", "2026-02-06T10:00:00Z")
        reminder("d11a", task: "t11", sentAt: "2026-02-06T09:00:00Z")
        reminder("d11b", task: "t11", installation: "i1b", sentAt: "2026-02-06T11:00:00Z")  // wasted, but outside
        task("t12", "r1", "2026-02-07")  // window_from: MISSED, in the window
        task("t20", "r2", "2026-03-05")  // MISSED, no reminder
        task("t30", "r3", "2026-03-05")
        event("t30", "COMPLETED", "2026-03-05T09:30:00Z", relationship: "r3")
        reminder(
            "d30", task: "t30", installation: "i3", user: "u3", relationship: "r3", sentAt: "2026-03-05T09:00:00Z")
        task("t40", "r4", "2026-03-09")  // OPEN (deadline 03-11): r4 has no scored task → no row

        let tables = try push.run(asOf: Self.asOf)
        let columns = [
            "relationship_id", "client_user_id", "coach_user_id", "window_from", "window_to", "scored_tasks",
            "reminded_tasks", "reminded_completed", "reminded_completion_rate", "unreminded_tasks",
            "unreminded_completed", "unreminded_completion_rate", "completed_within_2h", "wasted_reminders",
        ]
        #expect(
            tables.rows("reminder_effectiveness").map { Self.key($0, columns) } == [
                // scored: t1 t2 t3 t4 t5 t6 t8 t9 t10 t12 = 10 (t11 is outside, t10-old a duplicate);
                // reminded: t1 t2 t3 t10, completed t1 t2 t10 → 3/4 = 0.75;
                // unreminded: t4 t5 t6 t8 t9 t12, completed t4 t6 t9 → 3/6 = 0.5;
                // within 2 h: t1, t10; wasted: d4, d6b (d11b's task is outside the window)
                "r1|u1|c1|2026-02-07|2026-03-08|10|4|3|0.75|6|3|0.5|2|2",
                // nothing reminded → reminded_completion_rate NULL; 0 of 1 unreminded completed → 0
                "r2|u2|c1|2026-02-07|2026-03-08|1|0|0||1|0|0|0|0",
                // everything reminded → unreminded_completion_rate NULL
                "r3|u3|c2|2026-02-07|2026-03-08|1|1|1|1|0|0||1|0",
            ])
        let afterDone = tables.delivery("after_task_done")
        #expect(afterDone["d4"] == "true")  // t4 completed 08:00, sent 09:00
        #expect(afterDone["d6b"] == "true")  // t6 completed 10:00, sent 11:00 (SENT: any outcome counts)
        #expect(afterDone["d1"] == "false")  // sent 09:00, completed 09:30
        #expect(afterDone["d9"] == "false")  // COACH_NOTE is no DAILY_EXECUTION reminder
        #expect(afterDone["d3"] == "false")  // t3 was MISSED, never done
        // push_delivery_health: d4, d6b, d11b are sent after the task was done.
        let total = tables.rows("push_delivery_health").map { Int($0["sent_after_task_done"] ?? "") ?? 0 }.reduce(0, +)
        #expect(total == 3)
    }
}
