/// The columns of SPEC §11.1 that dayfold never reads and that reach no
/// output: device tokens and their hashes, notification text keys and
/// payloads, provider error details. They are unknown columns (named in the
/// manifest, nothing more), and blanked in a rejected row's raw text.
enum PushNeverReadColumns {
    static let names: Set<String> = [
        "provider_token_encrypted", "provider_token_hash", "native_token_hash", "device_id", "title_key", "body_key",
        "interpolation", "deep_link", "last_error_detail", "raw_payload",
    ]
}

extension PushInstallationColumn { package static var neverRead: Set<String> { PushNeverReadColumns.names } }
extension PushIntentColumn { package static var neverRead: Set<String> { PushNeverReadColumns.names } }
extension PushDeliveryColumn { package static var neverRead: Set<String> { PushNeverReadColumns.names } }
extension PushReceiptColumn { package static var neverRead: Set<String> { PushNeverReadColumns.names } }
