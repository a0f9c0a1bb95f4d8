import DER
import Foundation

/// One in-app purchase: the SET OF ReceiptAttribute inside an attribute of type 17.
public struct InAppPurchase: Sendable, Hashable {
    /// 1701 quantity.
    public var quantity: Int64?
    /// 1702 product identifier.
    public var productIdentifier: String
    /// 1703 transaction identifier.
    public var transactionIdentifier: String
    /// 1704 purchase date.
    public var purchaseDate: Date
    /// 1705 original transaction identifier.
    public var originalTransactionIdentifier: String?
    /// 1706 original purchase date.
    public var originalPurchaseDate: Date?
    /// 1707 product type (undocumented values).
    public var productType: Int64?
    /// 1708 subscription expiration date.
    public var subscriptionExpirationDate: Date?
    /// 1711 web order line item identifier.
    public var webOrderLineItemIdentifier: Int64?
    /// 1712 cancellation date (refunds).
    public var cancellationDate: Date?
    /// 1713 trial period (INTEGER 0/1).
    public var isTrialPeriod: Bool?
    /// 1719 introductory price period (INTEGER 0/1).
    public var isInIntroOfferPeriod: Bool?
    /// 1721 promotional offer identifier.
    public var promotionalOfferIdentifier: String?
    /// Every attribute of this purchase: indexes into `AppReceipt.inAppAttributes`.
    public var attributeIndexes: Range<Int>

    /// Whether this is an auto-renewable subscription purchase (it has an expiration date).
    public var isSubscription: Bool { subscriptionExpirationDate != nil }

    /// Whether the subscription period covers `date`: purchase ≤ date < expiry, not cancelled.
    public func isActive(at date: Date) -> Bool {
        guard cancellationDate == nil, let expiry = subscriptionExpirationDate else { return false }
        return purchaseDate <= date && date < expiry
    }
}

extension InAppPurchase {
    /// Decodes the SET inside a type-17 attribute's value, appending its raw attributes to `all`.
    init(_ attribute: ReceiptAttribute, payload: UnsafeRawBufferPointer, appendingTo all: inout [ReceiptAttribute]) throws(ReceiptError) {
        var fields = Fields()
        let first = all.count
        var attributes = try AttributeReader(payload, attribute.valueRange)
        while let inner = try attributes.next() {
            all.append(inner)
            try fields.read(inner, payload)
        }
        guard let product = fields.productIdentifier else { throw .missingAttribute(type: 1702, offset: attribute.offset) }
        guard let transaction = fields.transactionIdentifier else { throw .missingAttribute(type: 1703, offset: attribute.offset) }
        guard let purchaseDate = fields.purchaseDate else { throw .missingAttribute(type: 1704, offset: attribute.offset) }
        self.init(quantity: fields.quantity, productIdentifier: product, transactionIdentifier: transaction,
                  purchaseDate: purchaseDate, originalTransactionIdentifier: fields.originalTransactionIdentifier,
                  originalPurchaseDate: fields.originalPurchaseDate, productType: fields.productType,
                  subscriptionExpirationDate: fields.subscriptionExpirationDate,
                  webOrderLineItemIdentifier: fields.webOrderLineItemIdentifier, cancellationDate: fields.cancellationDate,
                  isTrialPeriod: fields.isTrialPeriod, isInIntroOfferPeriod: fields.isInIntroOfferPeriod,
                  promotionalOfferIdentifier: fields.promotionalOfferIdentifier, attributeIndexes: first ..< all.count)
    }

    /// The documented fields as they are read, each at most once.
    private struct Fields {
        var seen: UInt32 = 0
        var quantity: Int64?
        var productIdentifier: String?
        var transactionIdentifier: String?
        var purchaseDate: Date?
        var originalTransactionIdentifier: String?
        var originalPurchaseDate: Date?
        var productType: Int64?
        var subscriptionExpirationDate: Date?
        var webOrderLineItemIdentifier: Int64?
        var cancellationDate: Date?
        var isTrialPeriod: Bool?
        var isInIntroOfferPeriod: Bool?
        var promotionalOfferIdentifier: String?

        mutating func read(_ attribute: ReceiptAttribute, _ payload: UnsafeRawBufferPointer) throws(ReceiptError) {
            guard (1701...1721).contains(attribute.type) else { return }
            let bit = UInt32(1) << UInt32(attribute.type - 1701)
            let value = AttributeValue(bytes: payload, attribute: attribute)
            switch attribute.type {
            case 1701: quantity = try value.integer()
            case 1702: productIdentifier = try value.utf8String()
            case 1703: transactionIdentifier = try value.utf8String()
            case 1704: purchaseDate = try value.date()
            case 1705: originalTransactionIdentifier = try value.utf8String()
            case 1706: originalPurchaseDate = try value.date()
            case 1707: productType = try value.integer()
            case 1708: subscriptionExpirationDate = try value.date()
            case 1711: webOrderLineItemIdentifier = try value.integer()
            case 1712: cancellationDate = try value.date()
            case 1713: isTrialPeriod = try Self.flag(value)
            case 1719: isInIntroOfferPeriod = try Self.flag(value)
            case 1721: promotionalOfferIdentifier = try value.utf8String()
            default: return   // 1709, 1710, 1714–1718 (undocumented): raw only
            }
            // A documented field twice would make every answer ambiguous.
            guard seen & bit == 0 else { throw .duplicateAttribute(type: attribute.type, offset: attribute.offset) }
            seen |= bit
        }

        /// INTEGER 0 or 1.
        static func flag(_ value: AttributeValue) throws(ReceiptError) -> Bool {
            switch try value.integer() {
            case 0: return false
            case 1: return true
            default: throw .invalidAttribute(type: value.attribute.type, offset: value.attribute.offset)
            }
        }
    }
}
