/// The class of a provider's error code (SPEC §11.2): Expo's, APNs' and
/// FCM's codes for the same failure land in one class, matched exactly
/// (case-sensitive: `unregistered` is no `Unregistered`).
public enum PushErrorClass: String, Sendable, BitwiseCopyable, CaseIterable {
    case tokenInvalid = "token_invalid"
    case payloadTooBig = "payload_too_big"
    case rateLimited = "rate_limited"
    case credentials
    case senderMismatch = "sender_mismatch"
    case transient
    case other

    /// Whether sending again may succeed.
    public var retryable: Bool { self == .rateLimited || self == .transient }

    /// The class of a code of SPEC §11.2's table; nil for any other code.
    public static func known(_ code: String) -> PushErrorClass? { codes[code] }

    /// The class of a code, `other` for one outside the table or NULL.
    public static func of(_ code: String?) -> PushErrorClass { code.flatMap(known) ?? .other }

    private static let codes: [String: PushErrorClass] = {
        let table: [(PushErrorClass, [String])] = [
            (.tokenInvalid, ["DeviceNotRegistered", "Unregistered", "BadDeviceToken", "UNREGISTERED"]),
            (.payloadTooBig, ["MessageTooBig", "PayloadTooLarge"]),
            (.rateLimited, ["MessageRateExceeded", "TooManyRequests", "QUOTA_EXCEEDED"]),
            (
                .credentials,
                ["InvalidCredentials", "InvalidProviderToken", "ExpiredProviderToken", "THIRD_PARTY_AUTH_ERROR"]
            ),
            (.senderMismatch, ["MismatchSenderId", "SENDER_ID_MISMATCH", "DeviceTokenNotForTopic", "TopicDisallowed"]),
            (.transient, ["InternalServerError", "ServiceUnavailable", "Shutdown", "INTERNAL", "UNAVAILABLE"]),
        ]
        var codes: [String: PushErrorClass] = [:]
        for (errorClass, names) in table { for name in names { codes[name] = errorClass } }
        return codes
    }()
}
