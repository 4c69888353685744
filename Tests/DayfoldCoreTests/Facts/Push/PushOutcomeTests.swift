import Foundation
import Testing

@testable import DayfoldCore

/// SPEC §11.2 "Outcome of a delivery as of T, first rule that applies":
/// 1. the latest accepted receipt (by `received_at`, then `id`) decides;
/// 2. else the `status` rules, in order.
@Suite struct PushOutcomeTests {
    static func delivery(_ status: PushDeliveryStatus, code: String?) -> PushDelivery {
        // Ingest keeps the class of a code of the table, nil for any other code or NULL.
        PushDelivery(
            id: 0, intent: 0, installation: 0, provider: .expo, status: status, attemptCount: 1,
            knownErrorClass: code.flatMap(PushErrorClass.known), sentAt: Instant(micros: 0), failedAt: nil)
    }

    /// Rule 2, status by status, with no receipt.
    @Test(arguments: [
        // DELIVERED → DELIVERED
        (PushDeliveryStatus.delivered, String?.none, PushOutcome.delivered, PushErrorClass?.none),
        // SENT → SENT_UNCONFIRMED
        (.sent, nil, .sentUnconfirmed, nil),
        // INVALID_TOKEN → FAILED/token_invalid, whatever the code says
        (.invalidToken, nil, .failed, .tokenInvalid), (.invalidToken, "TooManyRequests", .failed, .tokenInvalid),
        // THROTTLED → FAILED/rate_limited, whatever the code says
        (.throttled, nil, .failed, .rateLimited), (.throttled, "InternalServerError", .failed, .rateLimited),
        // TRANSIENT_FAILED with a table code → that code's class (not transient)
        (.transientFailed, "MessageTooBig", .failed, .payloadTooBig),
        (.transientFailed, "DeviceNotRegistered", .failed, .tokenInvalid),
        // TRANSIENT_FAILED with a code outside the table, or NULL → transient (never other)
        (.transientFailed, "SomethingElse", .failed, .transient),
        (.transientFailed, "unregistered", .failed, .transient),
        (.transientFailed, nil, .failed, .transient),
        // FAILED → the class of the code; other when NULL or unknown
        (.failed, "InvalidCredentials", .failed, .credentials), (.failed, nil, .failed, .other),
        (.failed, "SomethingElse", .failed, .other),
        // PENDING → PENDING
        (.pending, nil, .pending, nil),
    ])
    func theStatusDecidesWithoutAReceipt(
        status: PushDeliveryStatus, code: String?, outcome: PushOutcome, errorClass: PushErrorClass?
    ) {
        let result = PushDeliveryFactsCalculator.outcomeOf(Self.delivery(status, code: code), receipt: nil)
        #expect(result.0 == outcome)
        #expect(result.1 == errorClass)
    }

    /// Rule 1 before rule 2: a receipt overrides every status.
    @Test(arguments: [
        // SENT + OK → DELIVERED
        (PushDeliveryStatus.sent, true, String?.none, PushOutcome.delivered, PushErrorClass?.none),
        // DELIVERED + ERROR DeviceNotRegistered → FAILED/token_invalid
        (.delivered, false, "DeviceNotRegistered", .failed, .tokenInvalid),
        // INVALID_TOKEN + OK → DELIVERED (the receipt is the later word)
        (.invalidToken, true, nil, .delivered, nil),
        // PENDING + ERROR with NULL code → FAILED/other
        (.pending, false, nil, .failed, .other),
        // TRANSIENT_FAILED + ERROR with an unknown code → other (the transient fallback is rule 2's only)
        (.transientFailed, false, "SomethingElse", .failed, .other),
    ])
    func aReceiptDecidesOverTheStatus(
        status: PushDeliveryStatus, ok: Bool, code: String?, outcome: PushOutcome, errorClass: PushErrorClass?
    ) {
        let receipt = PushReceipt(
            id: 0, delivery: 0, ok: ok, receivedAt: Instant(micros: 1), errorClass: PushErrorClass.of(code))
        let result = PushDeliveryFactsCalculator.outcomeOf(Self.delivery(status, code: nil), receipt: receipt)
        #expect(result.0 == outcome)
        #expect(result.1 == errorClass)
    }

    /// Through the binary: receipts over status, the latest receipt by
    /// (`received_at`, then `id`) — not file order — decides, receipts after T
    /// take no part; without a receipt the status rules apply.
    @Test func theLatestReceiptDecidesThenTheStatus() throws {
        var push = PushDrop()
        push.installation("i1")
        push.send("d-sent-ok", status: "SENT", sentAt: "2026-03-05T10:00:00Z")
        push.receipt("x1", delivery: "d-sent-ok", status: "OK", receivedAt: "2026-03-05T10:00:05Z")
        push.send("d-delivered-error", status: "DELIVERED", sentAt: "2026-03-05T10:01:00Z")
        push.receipt(
            "x2", delivery: "d-delivered-error", status: "ERROR", receivedAt: "2026-03-05T10:01:05Z",
            code: "DeviceNotRegistered")
        // The later receipt is first in the file: the time decides, not the order.
        push.send("d-later", status: "SENT", sentAt: "2026-03-05T10:02:00Z")
        push.receipt(
            "x3b", delivery: "d-later", status: "ERROR", receivedAt: "2026-03-05T10:02:06Z", code: "MessageTooBig")
        push.receipt("x3a", delivery: "d-later", status: "OK", receivedAt: "2026-03-05T10:02:05Z")
        // Same received_at: the greater id decides (x4b > x4a), though x4a is last in the file.
        push.send("d-tie-ok", status: "SENT", sentAt: "2026-03-05T10:03:00Z")
        push.receipt("x4b", delivery: "d-tie-ok", status: "OK", receivedAt: "2026-03-05T10:03:05Z")
        push.receipt(
            "x4a", delivery: "d-tie-ok", status: "ERROR", receivedAt: "2026-03-05T10:03:05Z", code: "TooManyRequests")
        push.send("d-tie-error", status: "SENT", sentAt: "2026-03-05T10:04:00Z")
        push.receipt(
            "x5b", delivery: "d-tie-error", status: "ERROR", receivedAt: "2026-03-05T10:04:05Z", code: "INTERNAL")
        push.receipt("x5a", delivery: "d-tie-error", status: "OK", receivedAt: "2026-03-05T10:04:05Z")
        // ERROR with no code.
        push.send("d-error-null", status: "SENT", sentAt: "2026-03-05T10:05:00Z")
        push.receipt("x6", delivery: "d-error-null", status: "ERROR", receivedAt: "2026-03-05T10:05:05Z")
        // A receipt after T is ignored: the status decides; and the earlier receipt stands.
        push.send("d-receipt-after-t", status: "SENT", sentAt: "2026-03-10T11:59:00Z")
        push.receipt("x7", delivery: "d-receipt-after-t", status: "OK", receivedAt: "2026-03-10T12:00:01Z")
        push.send("d-ok-then-late-error", status: "SENT", sentAt: "2026-03-10T11:58:00Z")
        push.receipt("x8a", delivery: "d-ok-then-late-error", status: "OK", receivedAt: "2026-03-10T11:58:05Z")
        push.receipt(
            "x8b", delivery: "d-ok-then-late-error", status: "ERROR", receivedAt: "2026-03-10T12:30:00Z",
            code: "BadDeviceToken")
        // The status rules, no receipt.
        push.send("d-status-delivered", status: "DELIVERED", sentAt: "2026-03-05T11:00:00Z")
        push.send("d-status-sent", status: "SENT", sentAt: "2026-03-05T11:01:00Z")
        push.send("d-status-invalid", status: "INVALID_TOKEN", sentAt: "2026-03-05T11:02:00Z")
        push.send(
            "d-status-throttled", status: "THROTTLED", code: "InternalServerError", sentAt: "2026-03-05T11:03:00Z")
        push.send(
            "d-transient-table", status: "TRANSIENT_FAILED", code: "MessageTooBig", sentAt: "2026-03-05T11:04:00Z")
        push.send("d-transient-unknown", status: "TRANSIENT_FAILED", code: "Flaky", sentAt: "2026-03-05T11:05:00Z")
        push.send("d-failed-null", status: "FAILED", sentAt: "2026-03-05T11:06:00Z")
        push.intent("n-pending", scheduledFor: "2026-03-05T11:07:00Z", status: "READY")
        push.delivery("d-pending", intent: "n-pending", status: "PENDING", attempts: "0")

        let tables = try push.run(asOf: "2026-03-10T12:00:00Z")
        let expected: [String: (outcome: String, errorClass: String, retryable: String)] = [
            "d-sent-ok": ("DELIVERED", "", ""),  // rule 1: OK → DELIVERED; retryable NULL unless FAILED
            "d-delivered-error": ("FAILED", "token_invalid", "false"),  // rule 1: ERROR DeviceNotRegistered
            "d-later": ("FAILED", "payload_too_big", "false"),  // 10:02:06 ERROR is later than 10:02:05 OK
            "d-tie-ok": ("DELIVERED", "", ""),  // tie on received_at: id x4b (OK) > x4a
            "d-tie-error": ("FAILED", "transient", "true"),  // tie: id x5b (ERROR INTERNAL) > x5a
            "d-error-null": ("FAILED", "other", "false"),  // ERROR with NULL provider_error_code → other
            "d-receipt-after-t": ("SENT_UNCONFIRMED", "", ""),  // its only receipt is after T: status SENT
            "d-ok-then-late-error": ("DELIVERED", "", ""),  // the ERROR after T is ignored: the OK stands
            "d-status-delivered": ("DELIVERED", "", ""),  // rule 2: DELIVERED → DELIVERED
            "d-status-sent": ("SENT_UNCONFIRMED", "", ""),  // rule 2: SENT → SENT_UNCONFIRMED
            "d-status-invalid": ("FAILED", "token_invalid", "false"),  // INVALID_TOKEN → token_invalid
            "d-status-throttled": ("FAILED", "rate_limited", "true"),  // THROTTLED → rate_limited, code unused
            "d-transient-table": ("FAILED", "payload_too_big", "false"),  // TRANSIENT_FAILED + table code
            "d-transient-unknown": ("FAILED", "transient", "true"),  // TRANSIENT_FAILED + unknown code
            "d-failed-null": ("FAILED", "other", "false"),  // FAILED with NULL code → other
            "d-pending": ("PENDING", "", ""),  // PENDING → PENDING; not FAILED so retryable NULL
        ]
        let rows = tables.deliveries
        #expect(Set(rows.keys) == Set(expected.keys))
        for (delivery, want) in expected {
            let row = rows[delivery] ?? [:]
            #expect(row["outcome"] == want.outcome, "\(delivery)")
            #expect(row["error_class"] == want.errorClass, "\(delivery)")
            #expect(row["retryable"] == want.retryable, "\(delivery)")
        }
    }
}
