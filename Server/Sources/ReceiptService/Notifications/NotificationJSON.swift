import AppReceipt
import AppStoreJWS
import Foundation

/// Signed transactions and renewal infos in `verifyReceipt`'s format (`../shared/reference/002`):
/// a `latest_receipt_info` entry in `in_app`'s key format and order, and a `pending_renewal_info`
/// object. Every value is a string; every date is the triple `X` (`… Etc/GMT`), `X_ms`, `X_pst`
/// (`AppleDateFormat`); absent values are left out.
enum NotificationJSON {
    /// A transaction as `latest_receipt_info` lists it, and separately the members a receipt
    /// cannot state (see `NotificationTransaction.serverMembers`).
    static func transaction(_ t: JWSTransactionDecodedPayload) -> (json: String, serverMembers: String) {
        var members = JSONMembers()
        members.string("quantity", t.quantity.map(String.init))
        members.string("product_id", t.productId)
        members.string("transaction_id", t.transactionId)
        members.string("original_transaction_id", t.originalTransactionId ?? t.transactionId)
        members.date("purchase_date", t.purchaseDate)
        members.date("original_purchase_date", t.originalPurchaseDate)
        members.date("expires_date", t.expiresDate)
        members.date("cancellation_date", t.revocationDate)
        members.string("web_order_line_item_id", t.webOrderLineItemId)
        if t.type == "Auto-Renewable Subscription" {
            members.string("is_trial_period", String(Offer.isFreeTrial(t.offerType, t.offerDiscountType)))
            members.string("is_in_intro_offer_period", String(Offer.isIntroductoryPrice(t.offerType, t.offerDiscountType)))
        }
        members.string("promotional_offer_id", Offer.promotionalOfferID(t.offerType, t.offerIdentifier))
        // A revocation's reason goes with its date: not kept beside a newer receipt's copy.
        members.string("cancellation_reason", t.revocationReason.map(String.init))

        var server = JSONMembers()
        if t.isUpgraded == true { server.string("is_upgraded", "true") }
        server.string("in_app_ownership_type", t.inAppOwnershipType)
        server.string("subscription_group_identifier", t.subscriptionGroupIdentifier)
        server.string("offer_code_ref_name", Offer.offerCodeReferenceName(t.offerType, t.offerIdentifier))
        members.append(server)
        return (members.object, server.text)
    }

    /// Renewal info as one `pending_renewal_info` object.
    static func renewalInfo(_ r: JWSRenewalInfoDecodedPayload) -> String {
        var members = JSONMembers()
        members.string("auto_renew_product_id", r.autoRenewProductId)
        members.string("auto_renew_status", r.autoRenewStatus.map(String.init))
        members.string("original_transaction_id", r.originalTransactionId)
        members.string("product_id", r.productId)
        members.string("expiration_intent", r.expirationIntent.map(String.init))
        members.date("grace_period_expires_date", r.gracePeriodExpiresDate)
        members.string("is_in_billing_retry_period", r.isInBillingRetryPeriod.map { $0 ? "1" : "0" })
        members.string("price_consent_status", r.priceIncreaseStatus.map(String.init))
        members.string("offer_code_ref_name", Offer.offerCodeReferenceName(r.offerType, r.offerIdentifier))
        members.string("promotional_offer_id", Offer.promotionalOfferID(r.offerType, r.offerIdentifier))
        return members.object
    }

    /// The dates these objects write, in the range `AppleDateFormat` prints (years 1970 to 9999);
    /// a signed payload with another is refused before anything is written.
    static let dateRange: ClosedRange<Int64> = 0 ... 253_402_300_799_999

    static func transactionDates(_ t: JWSTransactionDecodedPayload) -> [UnixMilliseconds?] {
        [t.purchaseDate, t.originalPurchaseDate, t.expiresDate, t.revocationDate]
    }

    static func renewalDates(_ r: JWSRenewalInfoDecodedPayload) -> [UnixMilliseconds?] {
        [r.gracePeriodExpiresDate]
    }
}

/// App Store Server API offer types (`offerType`: 1 introductory, 2 promotional, 3 offer code,
/// 4 win-back) in verifyReceipt's terms.
enum Offer {
    /// `is_trial_period`: an introductory offer that is a free trial. An introductory offer whose
    /// discount type is not stated (payloads before `offerDiscountType` existed) counts as a
    /// price offer, not a trial.
    static func isFreeTrial(_ type: Int64?, _ discount: String?) -> Bool {
        type == 1 && discount == "FREE_TRIAL"
    }

    /// `is_in_intro_offer_period`: an introductory offer that is a price, not a free trial.
    static func isIntroductoryPrice(_ type: Int64?, _ discount: String?) -> Bool {
        type == 1 && discount != "FREE_TRIAL"
    }

    /// `promotional_offer_id`: the offer identifier of a promotional offer.
    static func promotionalOfferID(_ type: Int64?, _ identifier: String?) -> String? {
        type == 2 ? identifier : nil
    }

    /// `offer_code_ref_name`: the offer identifier (reference name) of an offer code.
    static func offerCodeReferenceName(_ type: Int64?, _ identifier: String?) -> String? {
        type == 3 ? identifier : nil
    }
}

/// Object members written in order, strings quoted as `ReceiptJSON` quotes them.
struct JSONMembers {
    /// `"k":"v","k2":"v2"` (no braces).
    private(set) var text = ""

    /// The members in braces.
    var object: String { "{" + text + "}" }

    mutating func string(_ key: String, _ value: String?) {
        guard let value else { return }
        if !text.isEmpty { text += "," }
        text += ReceiptJSON.quoted(key) + ":" + ReceiptJSON.quoted(value)
    }

    /// `key`, `key_ms`, `key_pst`; nothing when absent. The caller has checked the range
    /// (`NotificationJSON.dateRange`).
    mutating func date(_ key: String, _ value: UnixMilliseconds?) {
        guard let value else { return }
        let date = Date(millisecondsSince1970: value.value)
        string(key, AppleDateFormat.gmt(date))
        string(key + "_ms", String(value.value))
        string(key + "_pst", AppleDateFormat.pacific(date))
    }

    mutating func append(_ other: JSONMembers) {
        guard !other.text.isEmpty else { return }
        if !text.isEmpty { text += "," }
        text += other.text
    }
}
