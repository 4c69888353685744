import Foundation
import Testing

@testable import DayfoldCore

/// SPEC §11.2 `to_invalid_token`: the installation's `revoked_at <=
/// sent_at`, or an earlier outcome `token_invalid` on the same installation
/// is known before `sent_at` — known at the deciding receipt's
/// `received_at`, else the delivery's `failed_at`, else its `sent_at`.
/// §11.1: a `revoked_at` after T is read as NULL.
@Suite struct TokenInvalidationTests {
    @Test func sendsAfterTheTokenWasKnownInvalidAreFlagged() throws {
        var push = PushDrop()
        for installation in ["iT", "iP", "iR", "iO", "iS", "iQ"] { push.installation(installation) }
        push.installation("iV", revokedAt: "2026-03-05T12:00:00Z")
        // iT: token_invalid from the status, known at failed_at 10:05.
        push.send(
            "dA", installation: "iT", status: "INVALID_TOKEN", sentAt: "2026-03-05T10:00:00Z",
            failedAt: "2026-03-05T10:05:00Z")
        push.send("dB", installation: "iT", sentAt: "2026-03-05T10:03:00Z")
        push.send("dC", installation: "iT", sentAt: "2026-03-05T10:05:00Z")
        push.send("dD", installation: "iT", sentAt: "2026-03-05T10:05:01Z")
        push.intent("n-dU", scheduledFor: "2026-03-05T11:00:00Z", status: "READY")
        push.delivery("dU", intent: "n-dU", installation: "iT", status: "PENDING")
        // iP: the same user's other installation.
        push.send("dL", installation: "iP", sentAt: "2026-03-05T11:00:00Z")
        // iR: the receipt decides and is known at 09:30, though failed_at says 09:10.
        push.send(
            "dE", installation: "iR", status: "FAILED", code: "DeviceNotRegistered",
            sentAt: "2026-03-05T09:00:00Z", failedAt: "2026-03-05T09:10:00Z")
        push.receipt("xE", delivery: "dE", status: "ERROR", receivedAt: "2026-03-05T09:30:00Z", code: "Unregistered")
        push.send("dF", installation: "iR", sentAt: "2026-03-05T09:20:00Z")
        push.send("dG", installation: "iR", sentAt: "2026-03-05T09:31:00Z")
        // iO: status INVALID_TOKEN, but an OK receipt makes the outcome DELIVERED.
        push.send(
            "dH", installation: "iO", status: "INVALID_TOKEN", sentAt: "2026-03-05T08:00:00Z",
            failedAt: "2026-03-05T08:01:00Z")
        push.receipt("xH", delivery: "dH", status: "OK", receivedAt: "2026-03-05T08:02:00Z")
        push.send("dI", installation: "iO", sentAt: "2026-03-05T09:00:00Z")
        // iS: no receipt, no failed_at: known at its sent_at 07:00.
        push.send("dJ", installation: "iS", status: "INVALID_TOKEN", sentAt: "2026-03-05T07:00:00Z")
        push.send("dK", installation: "iS", sentAt: "2026-03-05T07:00:01Z")
        // iQ: a FAILED outcome of another class does not count.
        push.send("dQ1", installation: "iQ", status: "FAILED", code: "MessageTooBig", sentAt: "2026-03-05T06:00:00Z")
        push.send("dQ2", installation: "iQ", sentAt: "2026-03-05T06:30:00Z")
        // iV: revoked at 12:00:00.
        push.send("dN", installation: "iV", sentAt: "2026-03-05T11:59:59Z")
        push.send("dM", installation: "iV", sentAt: "2026-03-05T12:00:00Z")

        let tables = try push.run(asOf: "2026-03-10T12:00:00Z")
        let flag = tables.delivery("to_invalid_token")
        let expected: [String: String] = [
            "dA": "false",  // the first token_invalid on iT: nothing earlier
            "dB": "false",  // 10:03: dA's failure is known only at 10:05 (failed_at), not at its sent_at 10:00
            "dC": "false",  // 10:05:00: known at 10:05:00 is not before it
            "dD": "true",  // 10:05:01: a second after dA's failed_at
            "dU": "false",  // not sent: all three flags false
            "dL": "false",  // another installation of the same user
            "dE": "false",  // the first token_invalid on iR
            "dF": "false",  // 09:20: dE's deciding receipt arrived at 09:30 (failed_at 09:10 is not the time)
            "dG": "true",  // 09:31: after the receipt
            "dH": "false",
            "dI": "false",  // dH's outcome is DELIVERED (its OK receipt), not token_invalid
            "dJ": "false",
            "dK": "true",  // dJ has neither receipt nor failed_at: known at its sent_at 07:00:00
            "dQ1": "false",
            "dQ2": "false",  // payload_too_big is not token_invalid
            "dN": "false",  // 11:59:59 < revoked_at 12:00:00
            "dM": "true",  // revoked_at <= sent_at (equal)
        ]
        #expect(flag == expected)
        // push_delivery_health: all 17 in one group; dD, dG, dK, dM are sent to an invalid token.
        let health = tables.rows("push_delivery_health")
        #expect(health.count == 1)
        #expect(health.first?["sent_to_invalid_token"] == "4")
    }

    /// A `revoked_at` after T is "not yet revoked at T" (read as NULL); one
    /// at or before T is kept. No send can show this (sends after T are
    /// ignored, so revoked_at > T > sent_at anyway): read the ingested value.
    @Test func aRevocationAfterTheAsOfIsReadAsNull() throws {
        var push = PushDrop()
        push.installation("iW", revokedAt: "2026-03-10T12:00:01Z")  // a second after T
        push.installation("iV", revokedAt: "2026-03-10T12:00:00Z")  // exactly T: not after it
        push.send("dW", installation: "iW", sentAt: "2026-03-09T10:00:00Z")
        let drop = try HandMadeDrop(push.files)
        defer { drop.remove() }
        let asOf = try #require(parseAsOf("2026-03-10T12:00:00Z"))
        let ingested = try PipelineRunner.ingest(
            input: drop.drop.path, config: PipelineConfig(), asOf: asOf, hashInputs: false)
        let installations = try #require(ingested.push).installations
        let revoked = Dictionary(uniqueKeysWithValues: installations.map { ($0.id, $0.revokedAt) })
        #expect(revoked["iW"] == .some(nil))
        #expect(revoked["iV"] == .some(asOf.instant))
    }
}
