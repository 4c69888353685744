import Foundation
import Testing

@testable import DayfoldCore

/// SPEC §11.2's error-class table: every provider code listed lands in its
/// class, matched exactly (case-sensitive); any other non-empty code and a
/// NULL code are `other`; only rate_limited and transient are retryable.
@Suite struct PushErrorClassTests {
    /// Every code of the table, with the class its row names.
    @Test(arguments: [
        ("DeviceNotRegistered", PushErrorClass.tokenInvalid), ("Unregistered", .tokenInvalid),
        ("BadDeviceToken", .tokenInvalid), ("UNREGISTERED", .tokenInvalid),
        ("MessageTooBig", .payloadTooBig), ("PayloadTooLarge", .payloadTooBig),
        ("MessageRateExceeded", .rateLimited), ("TooManyRequests", .rateLimited), ("QUOTA_EXCEEDED", .rateLimited),
        ("InvalidCredentials", .credentials), ("InvalidProviderToken", .credentials),
        ("ExpiredProviderToken", .credentials), ("THIRD_PARTY_AUTH_ERROR", .credentials),
        ("MismatchSenderId", .senderMismatch), ("SENDER_ID_MISMATCH", .senderMismatch),
        ("DeviceTokenNotForTopic", .senderMismatch), ("TopicDisallowed", .senderMismatch),
        ("InternalServerError", .transient), ("ServiceUnavailable", .transient), ("Shutdown", .transient),
        ("INTERNAL", .transient), ("UNAVAILABLE", .transient),
    ])
    func everyCodeOfTheTableHasItsRowsClass(code: String, expected: PushErrorClass) {
        #expect(PushErrorClass.of(code) == expected)
        #expect(PushErrorClass.known(code) == expected)
    }

    /// Codes outside the table: case differs from a listed code, a near
    /// miss, a code of no provider, padding. All `other`, none "known".
    @Test(arguments: [
        "unregistered",  // `Unregistered`/`UNREGISTERED` in lower case: the match is case-sensitive
        "devicenotregistered",  // DeviceNotRegistered in lower case
        "Internal",  // INTERNAL in mixed case
        "MessageTooBig ",  // a trailing space is another code
        "NotARealCode",  // any other non-empty code
    ])
    func aCodeOutsideTheTableIsOther(code: String) {
        #expect(PushErrorClass.of(code) == .other)
        #expect(PushErrorClass.known(code) == nil)
    }

    @Test func aNullCodeIsOther() {
        // FAILED with NULL → other (§11.2 outcome rule 2; receipts: "other when NULL").
        #expect(PushErrorClass.of(nil) == .other)
    }

    /// The table's `retryable` column: yes for rate_limited and transient, no for the five others.
    @Test(arguments: [
        (PushErrorClass.tokenInvalid, false), (.payloadTooBig, false), (.rateLimited, true), (.credentials, false),
        (.senderMismatch, false), (.transient, true), (.other, false),
    ])
    func onlyRateLimitedAndTransientAreRetryable(errorClass: PushErrorClass, retryable: Bool) {
        #expect(errorClass.retryable == retryable)
    }

    /// Through the binary: FAILED deliveries, one per class (plus the
    /// case-sensitivity and NULL cases), carry `error_class` and
    /// `retryable` in push_deliveries; outcome rule 2 — FAILED → the class
    /// of `last_error_code`, `other` when NULL.
    @Test func failedDeliveriesCarryTheirCodesClassAndRetryable() throws {
        var push = PushDrop()
        push.installation("i1")
        let cases: [(delivery: String, code: String, errorClass: String, retryable: String)] = [
            ("d-token", "BadDeviceToken", "token_invalid", "false"),  // table row token_invalid, "no"
            ("d-payload", "PayloadTooLarge", "payload_too_big", "false"),  // table row payload_too_big, "no"
            ("d-rate", "QUOTA_EXCEEDED", "rate_limited", "true"),  // table row rate_limited, "yes"
            ("d-cred", "ExpiredProviderToken", "credentials", "false"),  // table row credentials, "no"
            ("d-sender", "DeviceTokenNotForTopic", "sender_mismatch", "false"),  // sender_mismatch, "no"
            ("d-transient", "Shutdown", "transient", "true"),  // table row transient, "yes"
            ("d-unknown", "SomethingElse", "other", "false"),  // any other non-empty code → other, "no"
            ("d-lower", "unregistered", "other", "false"),  // case-sensitive: not `Unregistered`
            ("d-null", "", "other", "false"),  // FAILED with NULL last_error_code → other
        ]
        for (index, item) in cases.enumerated() {
            push.send(
                item.delivery, status: "FAILED", code: item.code,
                sentAt: "2026-03-05T10:0\(index):00Z", failedAt: "2026-03-05T10:0\(index):30Z")
        }
        let tables = try push.run(asOf: "2026-03-10T12:00:00Z")
        let outcome = tables.delivery("outcome")
        let errorClass = tables.delivery("error_class")
        let retryable = tables.delivery("retryable")
        for item in cases {
            #expect(outcome[item.delivery] == "FAILED", "\(item.delivery)")
            #expect(errorClass[item.delivery] == item.errorClass, "\(item.delivery)")
            #expect(retryable[item.delivery] == item.retryable, "\(item.delivery)")
        }
    }
}
