import CryptoPrimitives
import DER
import PKCS7
import X509Certificates

/// Builds receipt payloads (RFC-less: Apple's SET OF ReceiptAttribute) with typed fields.
public struct TestReceipt: Sendable {
    /// One in-app purchase.
    public struct Purchase: Sendable {
        public var productIdentifier: String
        public var transactionIdentifier: String
        public var originalTransactionIdentifier: String?
        public var purchaseDate: String
        public var originalPurchaseDate: String?
        public var expirationDate: String?
        public var cancellationDate: String?
        public var quantity: Int64 = 1
        public var productType: Int64?
        public var webOrderLineItemIdentifier: Int64?
        public var isTrialPeriod: Bool?
        public var isInIntroOfferPeriod: Bool?
        public var promotionalOfferIdentifier: String?

        public init(
            productIdentifier: String, transactionIdentifier: String, purchaseDate: String,
            originalTransactionIdentifier: String? = nil, originalPurchaseDate: String? = nil,
            expirationDate: String? = nil, cancellationDate: String? = nil, productType: Int64? = nil,
            webOrderLineItemIdentifier: Int64? = nil, isTrialPeriod: Bool? = nil,
            isInIntroOfferPeriod: Bool? = nil, promotionalOfferIdentifier: String? = nil
        ) {
            self.productIdentifier = productIdentifier
            self.transactionIdentifier = transactionIdentifier
            self.purchaseDate = purchaseDate
            self.originalTransactionIdentifier = originalTransactionIdentifier
            self.originalPurchaseDate = originalPurchaseDate
            self.expirationDate = expirationDate
            self.cancellationDate = cancellationDate
            self.productType = productType
            self.webOrderLineItemIdentifier = webOrderLineItemIdentifier
            self.isTrialPeriod = isTrialPeriod
            self.isInIntroOfferPeriod = isInIntroOfferPeriod
            self.promotionalOfferIdentifier = promotionalOfferIdentifier
        }

        /// The in-app SET's attributes.
        public var attributes: [(type: Int, value: [UInt8])] {
            var list: [(Int, [UInt8])] = [
                (1701, TestReceipt.integer(quantity)),
                (1702, TestReceipt.utf8(productIdentifier)),
                (1703, TestReceipt.utf8(transactionIdentifier)),
                (1704, TestReceipt.ia5(purchaseDate)),
            ]
            if let value = originalTransactionIdentifier { list.append((1705, TestReceipt.utf8(value))) }
            if let value = originalPurchaseDate { list.append((1706, TestReceipt.ia5(value))) }
            if let value = productType { list.append((1707, TestReceipt.integer(value))) }
            if let value = expirationDate { list.append((1708, TestReceipt.ia5(value))) }
            if let value = webOrderLineItemIdentifier { list.append((1711, TestReceipt.integer(value))) }
            list.append((1712, TestReceipt.ia5(cancellationDate ?? "")))
            if let value = isTrialPeriod { list.append((1713, TestReceipt.integer(value ? 1 : 0))) }
            if let value = isInIntroOfferPeriod { list.append((1719, TestReceipt.integer(value ? 1 : 0))) }
            if let value = promotionalOfferIdentifier { list.append((1721, TestReceipt.utf8(value))) }
            return list
        }
    }

    public var environment = "Production"
    public var appItemIdentifier: Int64 = 1_234_567_890
    public var bundleIdentifier = "com.example.receipts"
    public var appVersion = "42"
    public var opaqueValue: [UInt8] = [0x5d, 0xf7, 0x13, 0x2d, 0x42, 0xab, 0x2c, 0xfb, 0xa2, 0x4a, 0xd5, 0x46, 0xb6, 0x36, 0x19, 0x06]
    /// Attribute 5; by default computed for `deviceIdentifier`.
    public var sha1Hash: [UInt8]? = nil
    /// The device whose hash attribute 5 carries (the bytes of a UUID).
    public var deviceIdentifier: [UInt8] = Array(0 ..< 16)
    public var creationDate = "2024-02-23T17:27:16Z"
    public var originalPurchaseDate = "2016-08-16T15:15:43Z"
    public var originalAppVersion = "1.0"
    public var expirationDate: String? = nil
    public var purchases: [Purchase] = []
    /// Extra raw attributes (type, version, value DER).
    public var extraAttributes: [(type: Int, value: [UInt8])] = []
    /// Leaves SETs in writing order instead of DER order, like Xcode.
    public var unsorted = false

    public init() {}

    /// The payload DER (a SET OF ReceiptAttribute).
    public func payload() -> [UInt8] {
        let bundle = Self.utf8(bundleIdentifier)
        let hash = sha1Hash ?? SHA1.hash(deviceIdentifier + opaqueValue + bundle).bytes
        var list: [(Int, [UInt8])] = [
            (0, Self.utf8(environment)), (1, Self.integer(appItemIdentifier)), (2, bundle),
            (3, Self.utf8(appVersion)), (4, opaqueValue), (5, hash), (12, Self.ia5(creationDate)),
            (18, Self.ia5(originalPurchaseDate)), (19, Self.utf8(originalAppVersion)),
        ]
        if let expirationDate { list.append((21, Self.ia5(expirationDate))) }
        for purchase in purchases { list.append((17, set(purchase.attributes))) }
        list += extraAttributes
        return set(list)
    }

    /// A SET OF ReceiptAttribute, sorted (DER) unless `unsorted`.
    func set(_ attributes: [(type: Int, value: [UInt8])]) -> [UInt8] {
        var writer = DERWriter()
        let body: (inout DERWriter) -> Void = { set in
            for (type, value) in attributes {
                set.appendSequence { a in
                    a.appendInteger(Int64(type))
                    a.appendInteger(1)
                    a.appendOctetString(value)
                }
            }
        }
        if unsorted { writer.appendConstructed(.set, body) } else { writer.appendSetOf(body) }
        return writer.bytes
    }

    public static func utf8(_ text: String) -> [UInt8] { encode { $0.appendString(text, as: .utf8) } }
    public static func ia5(_ text: String) -> [UInt8] { encode { $0.appendString(text, as: .ia5) } }
    public static func integer(_ value: Int64) -> [UInt8] { encode { $0.appendInteger(value) } }

    static func encode(_ body: (inout DERWriter) -> Void) -> [UInt8] {
        var writer = DERWriter()
        body(&writer)
        return writer.bytes
    }
}
