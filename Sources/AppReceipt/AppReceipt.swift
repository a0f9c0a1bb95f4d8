import CryptoPrimitives
import DER
import PKCS7
import X509Certificates

/// An App Store receipt: the PKCS#7 envelope and its payload decoded into typed values.
///
/// Decoding makes no trust decision; call `validate` for that. Every attribute, known or not,
/// stays available raw (`attributes`, `inAppAttributes`, `value(of:)`).
public struct AppReceipt: Sendable {
    /// The PKCS#7 SignedData envelope.
    public let signedData: SignedData
    /// The bytes attribute ranges index: the envelope's storage when the content is one
    /// primitive OCTET STRING, else the joined content segments.
    package let payloadStorage: [UInt8]
    /// The payload (the signed content) within `payloadStorage`.
    package let payloadRange: Range<Int>
    /// App-level attributes in payload order.
    public let attributes: [ReceiptAttribute]
    /// The attributes of every in-app purchase, flat; each purchase's `attributeIndexes` selects its own.
    public let inAppAttributes: [ReceiptAttribute]

    /// 0 environment.
    public let environment: ReceiptEnvironment
    /// 1 app item identifier (0 in sandbox and Xcode).
    public let appItemIdentifier: Int64?
    /// 2 bundle identifier.
    public let bundleIdentifier: String
    /// 3 app version (CFBundleVersion).
    public let appVersion: String
    /// 4 opaque value, within `payloadStorage`.
    package let opaqueValueRange: Range<Int>
    /// 5 SHA-1 hash, within `payloadStorage`.
    package let sha1HashRange: Range<Int>
    /// 2's value octets as carried (UTF8String tag and length included), for the device hash.
    package let bundleIdentifierValueRange: Range<Int>
    /// 10 age rating.
    public let ageRating: String?
    /// 12 receipt creation date, in milliseconds since 1970 (`creationDate` as a `Date`).
    public let creationDateMilliseconds: Int64
    /// 15 download identifier.
    public let downloadIdentifier: Int64?
    /// 16 version external identifier.
    public let versionExternalIdentifier: Int64?
    /// 18 original purchase date, in milliseconds since 1970 (`originalPurchaseDate` as a `Date`).
    public let originalPurchaseDateMilliseconds: Int64?
    /// 19 original application version.
    public let originalAppVersion: String?
    /// 21 receipt expiration date (volume purchase program; Xcode writes year 4001), in
    /// milliseconds since 1970 (`expirationDate` as a `Date`).
    public let expirationDateMilliseconds: Int64?
    /// Attributes Apple does not document but real receipts carry.
    public let undocumented: UndocumentedAttributes
    /// 17 in-app purchases, in payload order.
    public let inAppPurchases: [InAppPurchase]

    /// Values of attributes Apple does not document, as their types suggest.
    public struct UndocumentedAttributes: Sendable, Hashable {
        /// 8: a date (often close to the creation date), in milliseconds since 1970 (`date8` as a `Date`).
        public var date8Milliseconds: Int64?
        /// 9: an INTEGER.
        public var integer9: Int64?
        /// 11: an INTEGER.
        public var integer11: Int64?
        /// 13: an INTEGER.
        public var integer13: Int64?
        /// 14: an INTEGER.
        public var integer14: Int64?
        /// 20: a UTF8String.
        public var string20: String?
        /// 25: an INTEGER.
        public var integer25: Int64?
    }

    /// The payload: the signed content, the DER SET OF ReceiptAttribute. Its indices are the
    /// offsets `ReceiptAttribute`'s `valueRange` and `offset` give: `payload[attribute.valueRange]`
    /// is `value(of: attribute)`.
    public var payload: ArraySlice<UInt8> { payloadStorage[payloadRange] }
    /// The opaque value (4).
    public var opaqueValue: ArraySlice<UInt8> { payloadStorage[opaqueValueRange] }
    /// The SHA-1 hash (5).
    public var sha1Hash: ArraySlice<UInt8> { payloadStorage[sha1HashRange] }
    /// A raw attribute's value octets.
    public func value(of attribute: ReceiptAttribute) -> ArraySlice<UInt8> { payloadStorage[attribute.valueRange] }
    /// The raw attributes of one in-app purchase.
    public func attributes(of purchase: InAppPurchase) -> ArraySlice<ReceiptAttribute> { inAppAttributes[purchase.attributeIndexes] }

    /// Decodes binary DER/BER receipt bytes.
    public init(_ bytes: [UInt8]) throws(ReceiptError) {
        guard bytes.count <= ReceiptLimits.maxInputSize else { throw .inputTooLarge(count: bytes.count) }
        do {
            signedData = try SignedData(berEncoded: bytes)
        } catch {
            throw .envelope(error)
        }
        let storage = signedData.contentRange == nil ? signedData.contentBytes() : signedData.storage
        let range = signedData.contentRange ?? 0 ..< storage.count
        payloadStorage = storage
        payloadRange = range
        var fields = Fields()
        var appAttributes: [ReceiptAttribute] = []
        var purchases: [InAppPurchase] = []
        var texts = ReceiptTexts(payload: storage, joined: [])
        var joined: [UInt8] = []   // BER constructed strings of purchases, joined (rare)
        var failure: ReceiptError? = nil
        // Purchases take 300–500 bytes: reserving by size avoids regrowing (and copying).
        purchases.reserveCapacity(range.count / 256)
        let inAppAttributes = [ReceiptAttribute](unsafeUninitializedCapacity: AttributeSink.capacity(for: range)) { slots, written in
            var sink = AttributeSink(slots)
            defer { written = sink.count }
            do throws(ReceiptError) {
                try storage.withRawBytes { (payload: UnsafeRawBufferPointer) throws(ReceiptError) in
                    // The payload SET holds the app attributes and every in-app purchase.
                    var reader = try AttributeReader(payload, range, limit: ReceiptLimits.maxAttributesPerSet + ReceiptLimits.maxInAppPurchases)
                    while let attribute = try reader.next() {
                        appAttributes.append(attribute)
                        if attribute.type == 17 {
                            guard purchases.count < ReceiptLimits.maxInAppPurchases else { throw .tooManyElements(offset: attribute.offset) }
                            purchases.append(
                                try InAppPurchase(
                                    attribute, texts: texts, payload: payload,
                                    appendingTo: &sink, joined: &joined))
                        } else {
                            guard appAttributes.count - purchases.count <= ReceiptLimits.maxAttributesPerSet else {
                                throw .tooManyElements(offset: attribute.offset)
                            }
                            try fields.read(attribute, payload)
                        }
                    }
                }
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        if !joined.isEmpty {
            texts = ReceiptTexts(payload: storage, joined: joined)
            purchases = purchases.map { InAppPurchase($0, texts: texts) }
        }
        let setOffset = range.lowerBound
        func required<T>(_ value: T?, _ type: Int) throws(ReceiptError) -> T {
            guard let value else { throw .missingAttribute(type: type, offset: setOffset) }
            return value
        }
        bundleIdentifier = try required(fields.bundleIdentifier, 2)
        bundleIdentifierValueRange = try required(fields.bundleIdentifierValueRange, 2)
        appVersion = try required(fields.appVersion, 3)
        opaqueValueRange = try required(fields.opaqueValueRange, 4)
        sha1HashRange = try required(fields.sha1HashRange, 5)
        creationDateMilliseconds = try required(fields.creationDate, 12)
        environment = ReceiptEnvironment(fields.environment ?? "")
        appItemIdentifier = fields.appItemIdentifier
        ageRating = fields.ageRating
        downloadIdentifier = fields.downloadIdentifier
        versionExternalIdentifier = fields.versionExternalIdentifier
        originalPurchaseDateMilliseconds = fields.originalPurchaseDate
        originalAppVersion = fields.originalAppVersion
        expirationDateMilliseconds = fields.expirationDate
        undocumented = fields.undocumented
        attributes = appAttributes
        self.inAppAttributes = inAppAttributes
        inAppPurchases = purchases
    }

    /// The documented app-level fields as they are read, each at most once.
    private struct Fields {
        var seen: UInt32 = 0
        var environment: String?
        var appItemIdentifier: Int64?
        var bundleIdentifier: String?
        var bundleIdentifierValueRange: Range<Int>?
        var appVersion: String?
        var opaqueValueRange: Range<Int>?
        var sha1HashRange: Range<Int>?
        var ageRating: String?
        var creationDate: Int64?
        var downloadIdentifier: Int64?
        var versionExternalIdentifier: Int64?
        var originalPurchaseDate: Int64?
        var originalAppVersion: String?
        var expirationDate: Int64?
        var undocumented = UndocumentedAttributes()

        mutating func read(_ attribute: ReceiptAttribute, _ payload: UnsafeRawBufferPointer) throws(ReceiptError) {
            let value = AttributeValue(bytes: payload, attribute: attribute)
            switch attribute.type {
            case 0: environment = try value.utf8String()
            case 1: appItemIdentifier = try value.integer()
            case 2:
                bundleIdentifier = try value.utf8String()
                bundleIdentifierValueRange = attribute.valueRange
            case 3: appVersion = try value.utf8String()
            // Opaque value and hash are used as they are; empty ones count as absent.
            case 4: opaqueValueRange = attribute.valueRange.isEmpty ? nil : attribute.valueRange
            case 5: sha1HashRange = attribute.valueRange.isEmpty ? nil : attribute.valueRange
            case 8: undocumented.date8Milliseconds = try value.milliseconds()
            case 9: undocumented.integer9 = try value.integer()
            case 10: ageRating = try value.ia5OrUTF8String()   // real receipts: IA5String
            case 11: undocumented.integer11 = try value.integer()
            case 12: creationDate = try value.milliseconds()
            case 13: undocumented.integer13 = try value.integer()
            case 14: undocumented.integer14 = try value.integer()
            case 15: downloadIdentifier = try value.integer()
            case 16: versionExternalIdentifier = try value.integer()
            case 18: originalPurchaseDate = try value.milliseconds()
            case 19: originalAppVersion = try value.utf8String()
            case 20: undocumented.string20 = try value.utf8String()
            case 21: expirationDate = try value.milliseconds()
            case 25: undocumented.integer25 = try value.integer()
            default: return   // 6, 7 and others: raw only
            }
            // A documented field twice would make validation ambiguous.
            let bit = UInt32(1) << UInt32(attribute.type)
            guard seen & bit == 0 else { throw .duplicateAttribute(type: attribute.type, offset: attribute.offset) }
            seen |= bit
        }
    }
}
