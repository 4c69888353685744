import Foundation
import Testing

/// SPEC §11.2 `in_quiet_hours`: the notification_preferences row in force
/// at `sent_at` (greatest `effective_from <= sent_at`) has both ends, they
/// differ, and the wall-clock time of `sent_at` in the recipient's zone (to
/// the second) lies in [start, end), wrapping past midnight when start >
/// end; DST needs no rule of its own. The recipient's zone (§11.1):
/// timezones.csv → latest task instance → installation → default → UTC.
@Suite struct QuietHoursTests {
    struct Send {
        var delivery: String
        var user: String
        var sentAt: String
        var quiet: Bool

        init(_ delivery: String, _ user: String, _ sentAt: String, _ quiet: Bool) {
            self.delivery = delivery
            self.user = user
            self.sentAt = sentAt
            self.quiet = quiet
        }
    }

    /// 22:00–07:00 around the spring DST change in Berlin (2026-03-29, 01:00Z:
    /// +01:00 → +02:00) and New York (2026-03-08, 07:00Z: −05:00 → −04:00),
    /// and 02:00–03:00 over Berlin's repeated hour (2026-10-25, 01:00Z: +02:00 → +01:00).
    static let dstSends: [Send] = [
        Send("qb1", "uB", "2026-03-28T20:59:59Z", false),  // 21:59:59 CET: a second early
        Send("qb2", "uB", "2026-03-28T21:00:00Z", true),  // 22:00:00 CET: start is in
        Send("qb3", "uB", "2026-03-29T00:59:59Z", true),  // 01:59:59 CET, past midnight
        Send("qb4", "uB", "2026-03-29T01:00:00Z", true),  // 03:00:00 CEST, after the gap
        Send("qb5", "uB", "2026-03-29T04:59:59Z", true),  // 06:59:59 CEST
        Send("qb6", "uB", "2026-03-29T05:00:00Z", false),  // 07:00:00 CEST: end is out (CET would say 06:00)
        Send("qb7", "uB", "2026-03-29T19:59:59Z", false),  // 21:59:59 CEST
        Send("qb8", "uB", "2026-03-29T20:00:00Z", true),  // 22:00:00 CEST (CET would say 21:00)
        Send("qn1", "uN", "2026-03-08T02:59:59Z", false),  // 21:59:59 EST on 03-07
        Send("qn2", "uN", "2026-03-08T03:00:00Z", true),  // 22:00:00 EST
        Send("qn3", "uN", "2026-03-08T06:59:59Z", true),  // 01:59:59 EST, before the gap
        Send("qn4", "uN", "2026-03-08T07:00:00Z", true),  // 03:00:00 EDT, after it
        Send("qn5", "uN", "2026-03-08T10:59:59Z", true),  // 06:59:59 EDT
        Send("qn6", "uN", "2026-03-08T11:00:00Z", false),  // 07:00:00 EDT (EST would say 06:00)
        Send("qn7", "uN", "2026-03-09T01:59:59Z", false),  // 21:59:59 EDT on 03-08
        Send("qn8", "uN", "2026-03-09T02:00:00Z", true),  // 22:00:00 EDT (EST would say 21:00)
        Send("qr1", "uR", "2026-10-24T23:59:59Z", false),  // 01:59:59 CEST
        Send("qr2", "uR", "2026-10-25T00:00:00Z", true),  // 02:00:00 CEST, first pass
        Send("qr3", "uR", "2026-10-25T00:59:59Z", true),  // 02:59:59 CEST
        Send("qr4", "uR", "2026-10-25T01:00:00Z", true),  // 02:00:00 CET, the repeat
        Send("qr5", "uR", "2026-10-25T01:59:59Z", true),  // 02:59:59 CET
        Send("qr6", "uR", "2026-10-25T02:00:00Z", false),  // 03:00:00 CET: end is out
    ]

    @Test func quietHoursWrapMidnightAcrossDSTChangesToTheSecond() throws {
        var push = PushDrop()
        push.timezones = [
            "uB,Europe/Berlin,2026-01-01T00:00:00Z", "uN,America/New_York,2026-01-01T00:00:00Z",
            "uR,Europe/Berlin,2026-01-01T00:00:00Z",
        ]
        push.preferences = [
            "uB,2026-01-01T00:00:00Z,22:00,07:00", "uN,2026-01-01T00:00:00Z,22:00,07:00",
            "uR,2026-01-01T00:00:00Z,02:00,03:00",
        ]
        for user in ["uB", "uN", "uR"] { push.installation("i-\(user)", user: user) }
        for send in Self.dstSends {
            push.send(send.delivery, user: send.user, installation: "i-\(send.user)", sentAt: send.sentAt)
        }
        // Not sent (sent_at NULL), scheduled at 00:00 Berlin: all flags false.
        push.intent("n-qb-unsent", user: "uB", scheduledFor: "2026-03-28T23:00:00Z", status: "READY")
        push.delivery("qb-unsent", intent: "n-qb-unsent", installation: "i-uB", status: "PENDING")

        let quiet = try push.run(asOf: "2026-11-01T00:00:00Z").delivery("in_quiet_hours")
        for send in Self.dstSends {
            #expect(quiet[send.delivery] == "\(send.quiet)", "\(send.delivery) \(send.sentAt)")
        }
        #expect(quiet["qb-unsent"] == "false")  // a delivery that was not sent has all three flags false
    }

    /// start == end means no quiet hours; either end NULL means none; the
    /// row in force is the greatest `effective_from <= sent_at` (compared
    /// as an instant, whatever the file order and the offset written), and
    /// before the first row there are none.
    @Test func theRowInForceAtTheSendDecidesAndDegenerateRowsNeverDo() throws {
        var push = PushDrop()
        push.timezones = [
            "uE,UTC,2026-01-01T00:00:00Z", "uX,UTC,2026-01-01T00:00:00Z", "uS,UTC,2026-01-01T00:00:00Z",
            "uH,UTC,2026-01-01T00:00:00Z",
        ]
        push.preferences = [
            "uE,2026-01-01T00:00:00Z,22:00,22:00", "uX,2026-01-01T00:00:00Z,22:00,", "uS,2026-01-01T00:00:00Z,,07:00",
            // The later row first; 13:30+01:00 is 12:30Z.
            "uH,2026-03-10T13:30:00+01:00,22:00,07:00", "uH,2026-03-01T00:00:00Z,12:00,14:00",
        ]
        for user in ["uE", "uX", "uS", "uH"] { push.installation("i-\(user)", user: user) }
        let sends: [Send] = [
            Send("qe1", "uE", "2026-03-05T22:00:00Z", false),  // start == end: never
            Send("qe2", "uE", "2026-03-05T03:00:00Z", false),  // never, past midnight too
            Send("qx1", "uX", "2026-03-05T23:00:00Z", false),  // quiet_end NULL: never
            Send("qs1", "uS", "2026-03-05T03:00:00Z", false),  // quiet_start NULL: never
            Send("qh1", "uH", "2026-02-28T13:00:00Z", false),  // before uH's first row: none in force
            Send("qh2", "uH", "2026-03-05T13:59:59Z", true),  // row 03-01, 12:00–14:00
            Send("qh3", "uH", "2026-03-05T14:00:00Z", false),  // 14:00 = end: out
            Send("qh4", "uH", "2026-03-10T12:29:59Z", true),  // still row 03-01 (12:00–14:00)
            Send("qh5", "uH", "2026-03-10T12:30:00Z", false),  // row 12:30Z in force (<=): 22–07
            Send("qh6", "uH", "2026-03-10T22:00:00Z", true),  // the 12:30Z row: 22:00 is in
        ]
        for send in sends {
            push.send(send.delivery, user: send.user, installation: "i-\(send.user)", sentAt: send.sentAt)
        }
        let quiet = try push.run(asOf: "2026-03-11T00:00:00Z").delivery("in_quiet_hours")
        for send in sends { #expect(quiet[send.delivery] == "\(send.quiet)", "\(send.delivery) \(send.sentAt)") }
    }

    /// §11.1's recipient zone: timezones.csv first, then the latest task
    /// instance, then the delivery's installation's `timezone`, then UTC —
    /// never the offset written in `sent_at`; a timezones.csv row is the one
    /// in effect at the send. Quiet hours 22:00–07:00 for all.
    @Test func theRecipientsZoneFallsBackToTheInstallationThenUTC() throws {
        var push = PushDrop()
        push.relationships.append("r2,uL,c2,ACTIVE,2026-03-01,")
        push.instances = ["t-l,r2,2026-03-04,America/Los_Angeles,HABIT,k-l,PENDING"]
        push.timezones = [
            "u1,UTC,2026-01-01T00:00:00Z", "uK,UTC,2026-01-01T00:00:00Z",
            // uM moves from Berlin to New York at 2026-03-05T12:00Z.
            "uM,Europe/Berlin,2026-01-01T00:00:00Z", "uM,America/New_York,2026-03-05T12:00:00Z",
        ]
        push.preferences = ["uT", "uZ", "uK", "uL", "uM"].map { "\($0),2026-01-01T00:00:00Z,22:00,07:00" }
        push.installation("i-uM", user: "uM")
        // 03-04 22:00Z: Berlin's row is in force → 23:00 (New York would be 17:00).
        push.send("qm1", user: "uM", installation: "i-uM", sentAt: "2026-03-04T22:00:00Z")
        // 03-06 10:00Z: New York's row is in force → 05:00 (Berlin would be 11:00).
        push.send("qm2", user: "uM", installation: "i-uM", sentAt: "2026-03-06T10:00:00Z")
        push.installation("i-uT", user: "uT", timezone: "Asia/Tokyo")
        push.installation("i-uZ", user: "uZ")
        push.installation("i-uK", user: "uK", timezone: "Asia/Tokyo")
        push.installation("i-uL", user: "uL", timezone: "Asia/Tokyo")
        // 14:30Z is 23:30 in Tokyo: the installation's zone (no timezones row, no task).
        push.send("qt1", user: "uT", installation: "i-uT", sentAt: "2026-03-05T14:30:00Z")
        // 23:30+09:00 is 14:30 UTC: no zone at all → UTC, not the written offset.
        push.send("qz1", user: "uZ", installation: "i-uZ", sentAt: "2026-03-05T23:30:00+09:00")
        // timezones.csv (UTC) comes before the installation (Tokyo): 14:30.
        push.send("qk1", user: "uK", installation: "i-uK", sentAt: "2026-03-05T14:30:00Z")
        // The task instance's zone (Los Angeles, −08:00) before the installation: 07:00Z is 23:00 on 03-05.
        push.send("ql1", user: "uL", installation: "i-uL", sentAt: "2026-03-06T07:00:00Z")

        let quiet = try push.run(asOf: "2026-03-10T12:00:00Z").delivery("in_quiet_hours")
        #expect(quiet["qt1"] == "true")  // 23:30 Asia/Tokyo
        #expect(quiet["qz1"] == "false")  // 14:30 UTC
        #expect(quiet["qk1"] == "false")  // 14:30 UTC (timezones.csv)
        #expect(quiet["ql1"] == "true")  // 23:00 America/Los_Angeles (Tokyo would be 16:00, UTC 07:00)
        #expect(quiet["qm1"] == "true")  // 23:00 Europe/Berlin, the zone in effect at the send
        #expect(quiet["qm2"] == "true")  // 05:00 America/New_York, the zone in effect at the send
    }
}
