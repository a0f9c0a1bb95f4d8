import DER
import Foundation

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
    /// 1704 purchase date.
    public var purchaseDate: Date { Date(millisecondsSince1970: values.purchase) }
    /// 1705 original transaction identifier.
    public var originalTransactionIdentifier: String? { values.has(.originalTransaction) ? texts.string(values.originalTransaction) : nil }
    /// 1706 original purchase date.
    public var originalPurchaseDate: Date? { values.date(.originalPurchase) }
    /// 1707 product type (undocumented values).
    public var productType: Int64? { values.integer(.productType) }
    /// 1708 subscription expiration date.
    public var subscriptionExpirationDate: Date? { values.date(.expiration) }
    /// 1711 web order line item identifier.
    public var webOrderLineItemIdentifier: Int64? { values.integer(.webOrderLineItem) }
    /// 1712 cancellation date (refunds).
    public var cancellationDate: Date? { values.date(.cancellation) }
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

    /// Whether the subscription period covers `date`: purchase ≤ date < expiry, not cancelled.
    public func isActive(at date: Date) -> Bool {
        guard cancellationDate == nil, let expiry = subscriptionExpirationDate else { return false }
        return purchaseDate <= date && date < expiry
    }
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

/// Where an in-app purchase's text lies: in the payload, or (BER constructed strings, joined)
/// in the receipt's joined-text buffer.
struct TextSpan: Sendable {
    let start: UInt32
    /// Length, with the top bit set for text in the joined buffer.
    let packedCount: UInt32

    init(start: Int, count: Int, inJoined: Bool) {
        self.start = UInt32(truncatingIfNeeded: start)
        packedCount = UInt32(truncatingIfNeeded: count) | (inJoined ? 1 << 31 : 0)
    }

    static let empty = TextSpan(start: 0, count: 0, inJoined: false)

    var count: Int { Int(packedCount & ~(1 << 31)) }
    var inJoined: Bool { packedCount >> 31 != 0 }
}

/// The bytes a receipt's purchases take their text from, shared by all of them.
final class ReceiptTexts: Sendable {
    let payload: [UInt8]
    let joined: [UInt8]

    init(payload: [UInt8], joined: [UInt8]) {
        self.payload = payload
        self.joined = joined
    }

    func bytes(_ span: TextSpan) -> ArraySlice<UInt8> {
        let start = Int(span.start)
        return (span.inJoined ? joined : payload)[start ..< start + span.count]
    }

    func string(_ span: TextSpan) -> String { String(decoding: bytes(span), as: UTF8.self) }

    func equals(_ span: TextSpan, _ text: String) -> Bool { bytes(span).elementsEqual(text.utf8) }
}

extension InAppPurchase {
    /// The decoded fields, plain values only: dates as milliseconds, optionals as presence bits.
    struct Values: Sendable {
        var purchase: Int64 = 0
        var originalPurchase: Int64 = 0
        var expiration: Int64 = 0
        var cancellation: Int64 = 0
        var quantity: Int64 = 0
        var productType: Int64 = 0
        var webOrderLineItem: Int64 = 0
        var product = TextSpan.empty
        var transaction = TextSpan.empty
        var originalTransaction = TextSpan.empty
        var promotionalOffer = TextSpan.empty
        var firstAttribute: UInt32 = 0
        var attributeCount: UInt32 = 0
        /// Which fields were present, by `Field`, and the two flags' values.
        var present: UInt32 = 0
        var flagValues: UInt8 = 0

        /// Fields by their attribute type; the bit is `type - 1701`.
        enum Field: Int {
            case quantity = 1701, product, transaction, purchase, originalTransaction, originalPurchase, productType,
                 expiration, webOrderLineItem = 1711, cancellation, trialPeriod, introOfferPeriod = 1719, promotionalOffer = 1721
            @inline(__always) var bit: UInt32 { 1 << UInt32(rawValue - 1701) }
        }

        func has(_ field: Field) -> Bool { present & field.bit != 0 }

        func integer(_ field: Field) -> Int64? {
            guard has(field) else { return nil }
            switch field {
            case .quantity: return quantity
            case .productType: return productType
            default: return webOrderLineItem
            }
        }

        func date(_ field: Field) -> Date? {
            guard has(field) else { return nil }
            switch field {
            case .originalPurchase: return Date(millisecondsSince1970: originalPurchase)
            case .expiration: return Date(millisecondsSince1970: expiration)
            default: return Date(millisecondsSince1970: cancellation)
            }
        }

        func flag(_ field: Field) -> Bool? {
            guard has(field) else { return nil }
            return flagValues & (field == .trialPeriod ? 1 : 2) != 0
        }

        /// The non-text fields (and presence) agree.
        func sameNumbers(as other: Values) -> Bool {
            present == other.present && flagValues == other.flagValues && purchase == other.purchase
                && (!has(.originalPurchase) || originalPurchase == other.originalPurchase)
                && (!has(.expiration) || expiration == other.expiration)
                && (!has(.cancellation) || cancellation == other.cancellation)
                && (!has(.quantity) || quantity == other.quantity)
                && (!has(.productType) || productType == other.productType)
                && (!has(.webOrderLineItem) || webOrderLineItem == other.webOrderLineItem)
        }

        /// The bits of the documented fields (types 1701–1708, 1711–1713, 1719, 1721).
        static var documented: UInt32 { 0b1_0100_0001_1100_1111_1111 }

        /// Reads one attribute of the purchase's SET; documented fields at most once each.
        @inline(__always)
        mutating func read(_ attribute: ReceiptAttribute, _ payload: UnsafeRawBufferPointer,
                           joined: inout [UInt8]) throws(ReceiptError) {
            let index = attribute.type &- 1701
            guard index >= 0, index < 32, Self.documented & (1 << UInt32(index)) != 0 else { return }   // 1709, 1710, 1714–1718: raw only
            let bit = UInt32(1) << UInt32(index)
            // A documented field twice would make every answer ambiguous.
            guard present & bit == 0 else { throw .duplicateAttribute(type: attribute.type, offset: attribute.offset) }
            present |= bit
            let value = AttributeValue(bytes: payload, attribute: attribute)
            var found = true
            switch attribute.type {
            case 1701: quantity = try value.integer()
            case 1702: found = try set(&product, value.utf8Text(joined: &joined))
            case 1703: found = try set(&transaction, value.utf8Text(joined: &joined))
            case 1704: found = try set(&purchase, value.milliseconds())
            case 1705: found = try set(&originalTransaction, value.utf8Text(joined: &joined))
            case 1706: found = try set(&originalPurchase, value.milliseconds())
            case 1707: productType = try value.integer()
            case 1708: found = try set(&expiration, value.milliseconds())
            case 1711: webOrderLineItem = try value.integer()
            case 1712: found = try set(&cancellation, value.milliseconds())
            case 1713: flagValues |= try value.flag() ? 1 : 0
            case 1719: flagValues |= try value.flag() ? 2 : 0
            default: found = try set(&promotionalOffer, value.utf8Text(joined: &joined))   // 1721
            }
            // Empty strings mean absent; the field still counts as seen for the duplicate check.
            if !found { absent |= bit }
        }

        /// Fields that were present but empty (absent in meaning).
        var absent: UInt32 = 0

        @inline(__always)
        private func set<T>(_ slot: inout T, _ value: T?) -> Bool {
            guard let value else { return false }
            slot = value
            return true
        }
    }
}

extension InAppPurchase {
    /// Decodes the SET inside a type-17 attribute's value, writing its raw attributes to `all`
    /// and the joined text of any BER constructed string to `joined`.
    init(_ attribute: ReceiptAttribute, texts: ReceiptTexts, payload: UnsafeRawBufferPointer,
         appendingTo all: inout AttributeSink, joined: inout [UInt8]) throws(ReceiptError) {
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
