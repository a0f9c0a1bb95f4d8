import Foundation
import ReceiptStore

/// The body of Get Notification History (`NotificationHistoryRequest`) and its
/// `paginationToken`, checked as Apple's (DESIGN §13). Members that are `null` count as absent
/// (Apple's Python client may send them).
struct NotificationHistoryRequest: Sendable, Hashable {
    var startDate: Int64
    var endDate: Int64
    var type: String?
    var subtype: String?
    var transactionID: String?
    var onlyFailures = false
    var cursor: PageToken?

    /// Apple's `notificationType` values.
    static let types: Set<String> = [
        "CONSUMPTION_REQUEST", "DID_CHANGE_RENEWAL_PREF", "DID_CHANGE_RENEWAL_STATUS", "DID_FAIL_TO_RENEW", "DID_RENEW",
        "EXPIRED", "EXTERNAL_PURCHASE_TOKEN", "GRACE_PERIOD_EXPIRED", "METADATA_UPDATE", "MIGRATION", "OFFER_REDEEMED",
        "ONE_TIME_CHARGE", "PRICE_CHANGE", "PRICE_INCREASE", "REFUND", "REFUND_DECLINED", "REFUND_REVERSED",
        "RENEWAL_EXTENDED", "RENEWAL_EXTENSION", "RESCIND_CONSENT", "REVOKE", "SUBSCRIBED", "TEST",
    ]
    /// Apple's `subtype` values.
    static let subtypes: Set<String> = [
        "ACCEPTED", "ACTIVE_TOKEN_REMINDER", "AUTO_RENEW_DISABLED", "AUTO_RENEW_ENABLED", "BILLING_RECOVERY",
        "BILLING_RETRY", "CREATED", "DOWNGRADE", "FAILURE", "GRACE_PERIOD", "INITIAL_BUY", "PENDING", "PRICE_INCREASE",
        "PRODUCT_NOT_FOR_SALE", "RESUBSCRIBE", "SUMMARY", "UNREPORTED", "UPGRADE", "VOLUNTARY",
    ]

    /// Reads `body` (4000000 when it is not a JSON object, or not strict JSON: a member twice,
    /// `StrictJSONBody`) and the token, in Apple's order of errors.
    init(body: Data, paginationToken: String?) throws(AppStoreAPIError) {
        guard let members = try? JSONDecoder().decode(Members.self, from: body), StrictJSONBody.problem(body) == nil else {
            throw .generalBadRequest
        }
        guard case .value(let start) = members.startDate else { throw .invalidStartDate }
        guard case .value(let end) = members.endDate else { throw .invalidEndDate }
        guard start < end else { throw .invalidDateRange }
        (startDate, endDate) = (start, end)
        type = try members.notificationType.value(in: Self.types, or: .invalidNotificationType)
        subtype = try members.notificationSubtype.value(in: Self.subtypes, or: .invalidNotificationType)
        switch members.transactionId {
        case .absent: break
        case .value(let id) where TransactionID.isValid(id): transactionID = id
        default: throw .invalidTransactionID
        }
        if transactionID != nil, type != nil || subtype != nil { throw .transactionIDAndNotificationType }
        switch members.onlyFailures {
        case .absent: break
        case .value(let flag): onlyFailures = flag
        case .invalid: throw .generalBadRequest
        }
        if let paginationToken {
            guard let token = PageToken(paginationToken, .notifications) else { throw .invalidPaginationToken }
            cursor = token
        }
    }

    /// The body's members, each absent (or `null`), of its type, or of another.
    private struct Members: Decodable {
        var startDate: JSONMember<Int64>, endDate: JSONMember<Int64>
        var notificationType: JSONMember<String>, notificationSubtype: JSONMember<String>, transactionId: JSONMember<String>
        var onlyFailures: JSONMember<Bool>

        enum CodingKeys: String, CodingKey {
            case startDate, endDate, notificationType, notificationSubtype, transactionId, onlyFailures
        }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            (startDate, endDate) = (JSONMember(c, .startDate), JSONMember(c, .endDate))
            (notificationType, notificationSubtype) = (JSONMember(c, .notificationType), JSONMember(c, .notificationSubtype))
            (transactionId, onlyFailures) = (JSONMember(c, .transactionId), JSONMember(c, .onlyFailures))
        }
    }
}

/// Apple's transaction ids: decimal digits, at most 32 of them (DESIGN §13, 4000006).
enum TransactionID {
    static func isValid(_ text: String) -> Bool {
        DecimalText.isDigits(text, lengths: 1 ... 32)
    }
}
