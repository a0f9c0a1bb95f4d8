import JSONText
/// Which of Apple's signed payloads a JSON object is, told by the members only that kind has.
/// For display and routing; decoding still asks for one type explicitly.
public enum SignedPayloadKind: String, Sendable, Hashable {
    /// `ResponseBodyV2DecodedPayload`: has `notificationType`.
    case notification
    /// `JWSTransactionDecodedPayload`: has `transactionId`.
    case transaction
    /// `JWSRenewalInfoDecodedPayload`: has `autoRenewStatus` or `autoRenewProductId`.
    case renewalInfo
    /// `AppTransaction`: has `receiptType` or `applicationVersion`.
    case appTransaction
    /// `DecodedRealtimeRequestBody` (Retention Messaging): has `userLocale`.
    case realtimeRequest
    /// None of these (or not an object).
    case unknown

    /// The kind of `payload` (JSON as signed).
    public init(payload: [UInt8]) {
        var names: Set<String> = []
        do {
            try PayloadObject.read(payload) { (name, reader) throws(JWSPayloadError) in
                names.insert(name.string)
                try reader.skipValue()
            }
        } catch {
            self = .unknown
            return
        }
        if names.contains("notificationType") {
            self = .notification
        } else if names.contains("transactionId") {
            self = .transaction
        } else if names.contains("autoRenewStatus") || names.contains("autoRenewProductId") {
            self = .renewalInfo
        } else if names.contains("receiptType") || names.contains("applicationVersion") {
            self = .appTransaction
        } else if names.contains("userLocale") {
            self = .realtimeRequest
        } else {
            self = .unknown
        }
    }
}
