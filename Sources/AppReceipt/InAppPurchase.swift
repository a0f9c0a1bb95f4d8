import DER
import Foundation

/// One in-app purchase: the SET OF ReceiptAttribute inside an attribute of type 17.
///
/// Every field is decoded and checked when the receipt is; text fields stay as the validated
/// UTF-8 in the receipt's storage and become `String`s when read, so decoding a receipt with
/// thousands of purchases allocates no strings.
public struct InAppPurchase: Sendable {
    /// 1701 quantity.
    public let quantity: Int64?
    /// 1704 purchase date.
    public let purchaseDate: Date
    /// 1706 original purchase date.
    public let originalPurchaseDate: Date?
    /// 1707 product type (undocumented values).
    public let productType: Int64?
    /// 1708 subscription expiration date.
    public let subscriptionExpirationDate: Date?
    /// 1711 web order line item identifier.
    public let webOrderLineItemIdentifier: Int64?
    /// 1712 cancellation date (refunds).
    public let cancellationDate: Date?
    /// 1713 trial period (INTEGER 0/1).
    public let isTrialPeriod: Bool?
    /// 1719 introductory price period (INTEGER 0/1).
    public let isInIntroOfferPeriod: Bool?
    /// Every attribute of this purchase: indexes into `AppReceipt.inAppAttributes`.
    public let attributeIndexes: Range<Int>

    /// The receipt's payload storage, which the text fields point into.
    let storage: [UInt8]
    let productText: ReceiptText
    let transactionText: ReceiptText
    let originalTransactionText: ReceiptText?
    let promotionalOfferText: ReceiptText?

    /// 1702 product identifier.
    public var productIdentifier: String { productText.string(in: storage) }
    /// 1703 transaction identifier.
    public var transactionIdentifier: String { transactionText.string(in: storage) }
    /// 1705 original transaction identifier.
    public var originalTransactionIdentifier: String? { originalTransactionText?.string(in: storage) }
    /// 1721 promotional offer identifier.
    public var promotionalOfferIdentifier: String? { promotionalOfferText?.string(in: storage) }

    /// Whether the product identifier is `identifier` (compared as UTF-8, without building a String).
    public func isProduct(_ identifier: String) -> Bool { productText.equals(identifier, in: storage) }

    /// Whether this is an auto-renewable subscription purchase (it has an expiration date).
    public var isSubscription: Bool { subscriptionExpirationDate != nil }

    /// Whether the subscription period covers `date`: purchase ≤ date < expiry, not cancelled.
    public func isActive(at date: Date) -> Bool {
        guard cancellationDate == nil, let expiry = subscriptionExpirationDate else { return false }
        return purchaseDate <= date && date < expiry
    }
}

extension InAppPurchase: Hashable {
    /// Equal when every decoded field is (the storage they come from does not matter).
    public static func == (a: InAppPurchase, b: InAppPurchase) -> Bool {
        a.quantity == b.quantity && a.purchaseDate == b.purchaseDate && a.originalPurchaseDate == b.originalPurchaseDate
            && a.productType == b.productType && a.subscriptionExpirationDate == b.subscriptionExpirationDate
            && a.webOrderLineItemIdentifier == b.webOrderLineItemIdentifier && a.cancellationDate == b.cancellationDate
            && a.isTrialPeriod == b.isTrialPeriod && a.isInIntroOfferPeriod == b.isInIntroOfferPeriod
            && a.productIdentifier == b.productIdentifier && a.transactionIdentifier == b.transactionIdentifier
            && a.originalTransactionIdentifier == b.originalTransactionIdentifier
            && a.promotionalOfferIdentifier == b.promotionalOfferIdentifier
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(transactionIdentifier)
        hasher.combine(purchaseDate)
    }
}

/// Validated UTF-8 text of an attribute: where it lies in the payload storage, or (for the rare
/// BER constructed string) the decoded string itself.
enum ReceiptText: Sendable {
    case bytes(Range<Int>)
    case decoded(String)

    func string(in storage: [UInt8]) -> String {
        switch self {
        case .bytes(let range): return String(decoding: storage[range], as: UTF8.self)
        case .decoded(let text): return text
        }
    }

    func equals(_ text: String, in storage: [UInt8]) -> Bool {
        switch self {
        case .bytes(let range): return storage[range].elementsEqual(text.utf8)
        case .decoded(let decoded): return decoded == text
        }
    }
}

extension InAppPurchase {
    /// Decodes the SET inside a type-17 attribute's value, appending its raw attributes to `all`.
    init(_ attribute: ReceiptAttribute, storage: [UInt8], payload: UnsafeRawBufferPointer,
         appendingTo all: inout [ReceiptAttribute]) throws(ReceiptError) {
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
        quantity = fields.quantity
        self.purchaseDate = purchaseDate
        originalPurchaseDate = fields.originalPurchaseDate
        productType = fields.productType
        subscriptionExpirationDate = fields.subscriptionExpirationDate
        webOrderLineItemIdentifier = fields.webOrderLineItemIdentifier
        cancellationDate = fields.cancellationDate
        isTrialPeriod = fields.isTrialPeriod
        isInIntroOfferPeriod = fields.isInIntroOfferPeriod
        attributeIndexes = first ..< all.count
        self.storage = storage
        productText = product
        transactionText = transaction
        originalTransactionText = fields.originalTransactionIdentifier
        promotionalOfferText = fields.promotionalOfferIdentifier
    }

    /// The documented fields as they are read, each at most once.
    private struct Fields {
        var seen: UInt32 = 0
        var quantity: Int64?
        var productIdentifier: ReceiptText?
        var transactionIdentifier: ReceiptText?
        var purchaseDate: Date?
        var originalTransactionIdentifier: ReceiptText?
        var originalPurchaseDate: Date?
        var productType: Int64?
        var subscriptionExpirationDate: Date?
        var webOrderLineItemIdentifier: Int64?
        var cancellationDate: Date?
        var isTrialPeriod: Bool?
        var isInIntroOfferPeriod: Bool?
        var promotionalOfferIdentifier: ReceiptText?

        mutating func read(_ attribute: ReceiptAttribute, _ payload: UnsafeRawBufferPointer) throws(ReceiptError) {
            guard (1701...1721).contains(attribute.type) else { return }
            let bit = UInt32(1) << UInt32(attribute.type - 1701)
            let value = AttributeValue(bytes: payload, attribute: attribute)
            switch attribute.type {
            case 1701: quantity = try value.integer()
            case 1702: productIdentifier = try value.utf8Text()
            case 1703: transactionIdentifier = try value.utf8Text()
            case 1704: purchaseDate = try value.date()
            case 1705: originalTransactionIdentifier = try value.utf8Text()
            case 1706: originalPurchaseDate = try value.date()
            case 1707: productType = try value.integer()
            case 1708: subscriptionExpirationDate = try value.date()
            case 1711: webOrderLineItemIdentifier = try value.integer()
            case 1712: cancellationDate = try value.date()
            case 1713: isTrialPeriod = try value.flag()
            case 1719: isInIntroOfferPeriod = try value.flag()
            case 1721: promotionalOfferIdentifier = try value.utf8Text()
            default: return   // 1709, 1710, 1714–1718 (undocumented): raw only
            }
            // A documented field twice would make every answer ambiguous.
            guard seen & bit == 0 else { throw .duplicateAttribute(type: attribute.type, offset: attribute.offset) }
            seen |= bit
        }
    }
}
