import DER

/// One in-app purchase: the SET OF ReceiptAttribute inside an attribute of type 17.
///
/// Every field is decoded and checked when the receipt is; text fields stay as validated UTF-8 in
/// the receipt's storage and become `String`s when read. Stored compactly (about 120 bytes, no
/// allocation), so a receipt with thousands of purchases decodes quickly.
public struct InAppPurchase: Sendable {
    let values: Values
    let texts: ReceiptTexts

    /// 1701 quantity.
    public var quantity: Int64? { values.integer(.quantity) }
    /// 1702 product identifier.
    public var productIdentifier: String { texts.string(values.product) }
    /// 1703 transaction identifier.
    public var transactionIdentifier: String { texts.string(values.transaction) }
    /// 1704 purchase date, in milliseconds since 1970 (`purchaseDate` as a `Date`).
    public var purchaseDateMilliseconds: Int64 { values.purchase }
    /// 1705 original transaction identifier.
    public var originalTransactionIdentifier: String? { values.has(.originalTransaction) ? texts.string(values.originalTransaction) : nil }
    /// 1706 original purchase date, in milliseconds since 1970 (`originalPurchaseDate` as a `Date`).
    public var originalPurchaseDateMilliseconds: Int64? { values.milliseconds(.originalPurchase) }
    /// 1707 product type (undocumented values).
    public var productType: Int64? { values.integer(.productType) }
    /// 1708 subscription expiration date, in milliseconds since 1970 (`subscriptionExpirationDate` as a `Date`).
    public var subscriptionExpirationDateMilliseconds: Int64? { values.milliseconds(.expiration) }
    /// 1711 web order line item identifier.
    public var webOrderLineItemIdentifier: Int64? { values.integer(.webOrderLineItem) }
    /// 1712 cancellation date (refunds), in milliseconds since 1970 (`cancellationDate` as a `Date`).
    public var cancellationDateMilliseconds: Int64? { values.milliseconds(.cancellation) }
    /// 1713 trial period (INTEGER 0/1).
    public var isTrialPeriod: Bool? { values.flag(.trialPeriod) }
    /// 1719 introductory price period (INTEGER 0/1).
    public var isInIntroOfferPeriod: Bool? { values.flag(.introOfferPeriod) }
    /// 1721 promotional offer identifier.
    public var promotionalOfferIdentifier: String? { values.has(.promotionalOffer) ? texts.string(values.promotionalOffer) : nil }
    /// Every attribute of this purchase: indexes into `AppReceipt.inAppAttributes`.
    public var attributeIndexes: Range<Int> { Int(values.firstAttribute) ..< Int(values.firstAttribute) + Int(values.attributeCount) }

    /// Whether the product identifier is `identifier` (compared as UTF-8, without building a String).
    public func isProduct(_ identifier: String) -> Bool { texts.equals(values.product, identifier) }

    /// Whether this is an auto-renewable subscription purchase (it has an expiration date).
    public var isSubscription: Bool { values.has(.expiration) }
}

extension InAppPurchase: Hashable {
    /// Equal when every decoded field is (the storage they come from does not matter).
    public static func == (a: InAppPurchase, b: InAppPurchase) -> Bool {
        a.values.sameNumbers(as: b.values) && a.productIdentifier == b.productIdentifier
            && a.transactionIdentifier == b.transactionIdentifier
            && a.originalTransactionIdentifier == b.originalTransactionIdentifier
            && a.promotionalOfferIdentifier == b.promotionalOfferIdentifier
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(transactionIdentifier)
        hasher.combine(values.purchase)
    }
}

extension InAppPurchase {
    /// Decodes the SET inside a type-17 attribute's value, writing its raw attributes to `all`
    /// and the joined text of any BER constructed string to `joined`.
    init(
        _ attribute: ReceiptAttribute, texts: ReceiptTexts, payload: UnsafeRawBufferPointer,
        appendingTo all: inout AttributeSink, joined: inout [UInt8]
    ) throws(ReceiptError) {
        var values = Values()
        values.firstAttribute = UInt32(truncatingIfNeeded: all.count)
        var attributes = try AttributeReader(payload, attribute.valueRange)
        while let inner = try attributes.next() {
            try all.append(inner)
            try values.read(inner, payload, joined: &joined)
        }
        values.attributeCount = UInt32(truncatingIfNeeded: all.count) - values.firstAttribute
        values.present &= ~values.absent
        for (field, type) in [(Values.Field.product, 1702), (.transaction, 1703), (.purchase, 1704)] where !values.has(field) {
            throw .missingAttribute(type: type, offset: attribute.offset)
        }
        self.values = values
        self.texts = texts
    }

    /// The same purchase reading its text from `texts` (after joined text was added).
    init(_ purchase: InAppPurchase, texts: ReceiptTexts) {
        values = purchase.values
        self.texts = texts
    }
}
