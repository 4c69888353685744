/// push/receipts: a provider's later word on a delivery (SPEC §11.1).
/// Append-only: the same `id` again is a duplicate (first wins).
package enum PushReceiptColumn: Int, ExportColumns {
    case id, deliveryID, receiptStatus, receivedAt
    case provider, providerTicketID, providerErrorCode

    package static let kind = "push_receipts"

    package var name: String {
        switch self {
        case .id: "id"
        case .deliveryID: "delivery_id"
        case .receiptStatus: "receipt_status"
        case .receivedAt: "received_at"
        case .provider: "provider"
        case .providerTicketID: "provider_ticket_id"
        case .providerErrorCode: "provider_error_code"
        }
    }

    package var isRequired: Bool {
        switch self {
        case .id, .deliveryID, .receiptStatus, .receivedAt: true
        case .provider, .providerTicketID, .providerErrorCode: false
        }
    }
}
