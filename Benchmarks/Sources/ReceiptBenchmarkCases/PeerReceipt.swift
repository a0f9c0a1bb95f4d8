import AppReceipt
import Foundation

/// What the OpenSSL and swift-asn1 decoders produce: the same typed values as `AppReceipt`
/// (strings, 64-bit integers, dates, every raw attribute), so that all peers do the same work.
/// Each peer reads the ASN.1 with its own library; only the date text → `Date` step is shared.
public struct PeerReceipt: Equatable, Sendable {
    public var environment: String?
    public var appItemIdentifier: Int64?
    public var bundleIdentifier: String?
    public var appVersion: String?
    public var opaqueValue: [UInt8]?
    public var sha1Hash: [UInt8]?
    public var ageRating: String?
    public var creationDate: Date?
    public var downloadIdentifier: Int64?
    public var versionExternalIdentifier: Int64?
    public var originalPurchaseDate: Date?
    public var originalAppVersion: String?
    public var expirationDate: Date?
    public var purchases: [PeerPurchase] = []
    /// Every attribute, app-level and in-app: type, version, value length.
    public var rawAttributes: [RawAttribute] = []

    public init() {}

    mutating func assign(_ type: Int, _ value: some AttributeValueDecoder) throws {
        switch type {
        case 0: environment = try value.utf8String()
        case 1: appItemIdentifier = try value.integer()
        case 2: bundleIdentifier = try value.utf8String()
        case 3: appVersion = try value.utf8String()
        case 4: opaqueValue = value.octets
        case 5: sha1Hash = value.octets
        case 10: ageRating = try value.ia5String()
        case 12: creationDate = try value.date()
        case 15: downloadIdentifier = try value.integer()
        case 16: versionExternalIdentifier = try value.integer()
        case 18: originalPurchaseDate = try value.date()
        case 19: originalAppVersion = try value.utf8String()
        case 21: expirationDate = try value.date()
        default: break
        }
    }
}

public struct PeerPurchase: Equatable, Sendable {
    public var quantity: Int64?
    public var productIdentifier: String?
    public var transactionIdentifier: String?
    public var purchaseDate: Date?
    public var originalTransactionIdentifier: String?
    public var originalPurchaseDate: Date?
    public var productType: Int64?
    public var subscriptionExpirationDate: Date?
    public var webOrderLineItemIdentifier: Int64?
    public var cancellationDate: Date?
    public var isTrialPeriod: Bool?
    public var isInIntroOfferPeriod: Bool?
    public var promotionalOfferIdentifier: String?

    public init() {}

    mutating func assign(_ type: Int, _ value: some AttributeValueDecoder) throws {
        switch type {
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
        case 1713: isTrialPeriod = try value.integer() != 0
        case 1719: isInIntroOfferPeriod = try value.integer() != 0
        case 1721: promotionalOfferIdentifier = try value.utf8String()
        default: break
        }
    }
}

public struct RawAttribute: Equatable, Sendable {
    public var type: Int
    public var version: Int
    public var valueCount: Int
}

public struct PeerDecodingError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// One attribute's value (the DER inside its OCTET STRING) as a peer library reads it.
protocol AttributeValueDecoder {
    func utf8String() throws -> String
    func ia5String() throws -> String
    func integer() throws -> Int64
    /// An IA5String RFC 3339 date; `nil` for the empty string.
    func date() throws -> Date?
    /// The value octets themselves.
    var octets: [UInt8] { get }
}

/// RFC 3339 as receipts write it (`2024-02-23T17:27:16Z`, Xcode's `+0100`, fractions), shared by
/// the peers so that they differ only in how they read ASN.1.
enum ReceiptDate {
    static func parse(_ text: UnsafeRawBufferPointer) throws -> Date? {
        if text.isEmpty { return nil }
        var i = 0
        func digits(_ count: Int) throws -> Int {
            guard i + count <= text.count else { throw PeerDecodingError("short date") }
            var value = 0
            for _ in 0 ..< count {
                let digit = Int(text[i]) - 0x30
                guard (0 ... 9).contains(digit) else { throw PeerDecodingError("bad date") }
                value = value * 10 + digit
                i += 1
            }
            return value
        }
        func skip(_ byte: UInt8) throws {
            guard i < text.count, text[i] == byte else { throw PeerDecodingError("bad date") }
            i += 1
        }
        let year = try digits(4); try skip(0x2D)
        let month = try digits(2); try skip(0x2D)
        let day = try digits(2); try skip(0x54)
        let hour = try digits(2); try skip(0x3A)
        let minute = try digits(2); try skip(0x3A)
        let second = try digits(2)
        var millis = 0
        if i < text.count, text[i] == 0x2E {
            i += 1
            var count = 0
            while i < text.count, (0x30 ... 0x39).contains(text[i]) {
                if count < 3 { millis = millis * 10 + Int(text[i] - 0x30) }
                count += 1
                i += 1
            }
            while count < 3 { millis *= 10; count += 1 }
        }
        guard i < text.count else { throw PeerDecodingError("no zone") }
        var offset = 0
        let zone = text[i]
        i += 1
        if zone == 0x2B || zone == 0x2D {
            let hours = try digits(2)
            if i < text.count, text[i] == 0x3A { i += 1 }
            offset = (hours * 60 + (try digits(2))) * 60 * (zone == 0x2B ? 1 : -1)
        } else if zone != 0x5A {
            throw PeerDecodingError("bad zone")
        }
        guard i == text.count else { throw PeerDecodingError("trailing date bytes") }
        // Days from civil (Howard Hinnant's algorithm).
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        let days = era * 146_097 + doe - 719_468
        let seconds = days * 86_400 + hour * 3_600 + minute * 60 + second - offset
        return Date(timeIntervalSince1970: Double(seconds * 1000 + millis) / 1000)
    }
}

extension PeerReceipt {
    /// Our decoded receipt in the peers' shape, to check (untimed) that every peer found the same values.
    public init(_ receipt: AppReceipt) {
        self.init()
        environment = receipt.environment.rawValue
        appItemIdentifier = receipt.appItemIdentifier
        bundleIdentifier = receipt.bundleIdentifier
        appVersion = receipt.appVersion
        opaqueValue = Array(receipt.opaqueValue)
        sha1Hash = Array(receipt.sha1Hash)
        ageRating = receipt.ageRating
        creationDate = receipt.creationDate
        downloadIdentifier = receipt.downloadIdentifier
        versionExternalIdentifier = receipt.versionExternalIdentifier
        originalPurchaseDate = receipt.originalPurchaseDate
        originalAppVersion = receipt.originalAppVersion
        expirationDate = receipt.expirationDate
        purchases = receipt.inAppPurchases.map { p in
            var purchase = PeerPurchase()
            purchase.quantity = p.quantity
            purchase.productIdentifier = p.productIdentifier
            purchase.transactionIdentifier = p.transactionIdentifier
            purchase.purchaseDate = p.purchaseDate
            purchase.originalTransactionIdentifier = p.originalTransactionIdentifier
            purchase.originalPurchaseDate = p.originalPurchaseDate
            purchase.productType = p.productType
            purchase.subscriptionExpirationDate = p.subscriptionExpirationDate
            purchase.webOrderLineItemIdentifier = p.webOrderLineItemIdentifier
            purchase.cancellationDate = p.cancellationDate
            purchase.isTrialPeriod = p.isTrialPeriod
            purchase.isInIntroOfferPeriod = p.isInIntroOfferPeriod
            purchase.promotionalOfferIdentifier = p.promotionalOfferIdentifier
            return purchase
        }
        rawAttributes = (receipt.attributes + receipt.inAppAttributes).map {
            RawAttribute(type: $0.type, version: $0.version, valueCount: $0.valueRange.count)
        }
    }

    /// Equal up to the order of raw attributes (peers list in-app attributes where they meet them).
    public func sameValues(as other: PeerReceipt) -> Bool {
        var a = self, b = other
        let order: (RawAttribute, RawAttribute) -> Bool = { ($0.type, $0.version, $0.valueCount) < ($1.type, $1.version, $1.valueCount) }
        a.rawAttributes.sort(by: order)
        b.rawAttributes.sort(by: order)
        return a == b
    }
}
