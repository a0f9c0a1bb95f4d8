import AppReceipt
import Foundation
import PKCS7
import X509Certificates
import ReceiptTestSupport
import Testing
import TestHelpers

/// Synthetic receipts decoded field by field: every value is written by the test and compared
/// with literals (dates as milliseconds computed outside the code under test).
struct RoundTripTests {
    static let device: [UInt8] = [UInt8](repeating: 0xAB, count: 16)

    static let description: TestReceipt = {
        var r = TestReceipt()
        r.environment = "ProductionSandbox"
        r.appItemIdentifier = Int64.max
        r.bundleIdentifier = "com.example.roundtrip"
        r.appVersion = "3.14.15"
        r.opaqueValue = [0xDE, 0xAD, 0xBE, 0xEF, 0x00, 0x01, 0x02, 0x03]
        r.deviceIdentifier = device
        r.creationDate = "2025-12-26T18:39:47Z"
        r.originalPurchaseDate = "2013-08-01T07:00:00Z"
        r.originalAppVersion = "1.0b7"
        r.expirationDate = "2026-01-01T00:00:00Z"
        r.extraAttributes = [
            (8, TLV.ia5("2025-12-26T18:00:00Z")), (9, TLV.integer(1_345_531_957)), (10, TLV.ia5("12+")),
            (11, TLV.integer(-5)), (13, TLV.integer(180_602)), (14, TLV.integer(229)),
            (15, Hex.bytes("02 08 01 02 03 04 05 06 07 08")),   // 8-byte download id
            (16, Hex.bytes("02 08 80 00 00 00 00 00 00 00")),   // Int64.min
            (20, TLV.utf8("twenty")), (25, TLV.integer(3)),
            (6, Hex.bytes("0001020304050607")), (7, Hex.bytes("FFFE")), (1000, TLV.utf8("unknown")),
        ]
        var subscription = TestReceipt.Purchase(
            productIdentifier: "com.example.sub", transactionIdentifier: "2000001092134138",
            purchaseDate: "2025-12-26T17:43:07Z", originalTransactionIdentifier: "2000001092134100",
            originalPurchaseDate: "2025-11-26T17:43:07Z", expirationDate: "2025-12-26T18:19:07Z",
            cancellationDate: "2025-12-26T18:05:00Z", productType: 3, webOrderLineItemIdentifier: 4_611_686_018_427_387_904,
            isTrialPeriod: true, isInIntroOfferPeriod: false, promotionalOfferIdentifier: "offer.½")
        subscription.quantity = 5
        r.purchases = [
            subscription,
            TestReceipt.Purchase(
                productIdentifier: "com.example.coins", transactionIdentifier: "7",
                purchaseDate: "2024-02-29T23:59:59Z"),
        ]
        return r
    }()

    static let bytes: [UInt8] = Synthetic.sign(description)

    @Test func appFields() throws {
        let r = try AppReceipt(Self.bytes)
        #expect(r.environment == .productionSandbox)
        #expect(r.environment.rawValue == "ProductionSandbox")
        #expect(r.appItemIdentifier == 9_223_372_036_854_775_807)
        #expect(r.bundleIdentifier == "com.example.roundtrip")
        #expect(r.appVersion == "3.14.15")
        #expect(Array(r.opaqueValue) == [0xDE, 0xAD, 0xBE, 0xEF, 0x00, 0x01, 0x02, 0x03])
        #expect(r.sha1Hash.count == 20)
        #expect(r.matchesDevice(Self.device))
        #expect(r.creationDate.millisecondsSince1970 == 1_766_774_387_000)
        #expect(r.originalPurchaseDate?.millisecondsSince1970 == 1_375_340_400_000)
        #expect(r.originalAppVersion == "1.0b7")
        #expect(r.expirationDate?.millisecondsSince1970 == 1_767_225_600_000)
        #expect(r.ageRating == "12+")
        #expect(r.downloadIdentifier == 72_623_859_790_382_856)
        #expect(r.versionExternalIdentifier == Int64.min)
        #expect(r.undocumented.date8?.millisecondsSince1970 == 1_766_772_000_000)
        #expect(r.undocumented.integer9 == 1_345_531_957)
        #expect(r.undocumented.integer11 == -5)
        #expect(r.undocumented.integer13 == 180_602)
        #expect(r.undocumented.integer14 == 229)
        #expect(r.undocumented.string20 == "twenty")
        #expect(r.undocumented.integer25 == 3)
        #expect(r.inAppPurchases.count == 2)
        #expect(
            validationError(
                r, bundleIdentifier: "com.example.roundtrip", appVersion: "3.14.15",
                deviceIdentifier: Self.device) == nil)
    }

    @Test func inAppFields() throws {
        let r = try AppReceipt(Self.bytes)
        let sub = try #require(r.inAppPurchases.first { $0.productIdentifier == "com.example.sub" })
        #expect(sub.quantity == 5)
        #expect(sub.transactionIdentifier == "2000001092134138")
        #expect(sub.purchaseDate.millisecondsSince1970 == 1_766_770_987_000)
        #expect(sub.originalTransactionIdentifier == "2000001092134100")
        #expect(sub.originalPurchaseDate?.millisecondsSince1970 == 1_764_178_987_000)
        #expect(sub.productType == 3)
        #expect(sub.subscriptionExpirationDate?.millisecondsSince1970 == 1_766_773_147_000)
        #expect(sub.webOrderLineItemIdentifier == 4_611_686_018_427_387_904)
        #expect(sub.cancellationDate?.millisecondsSince1970 == 1_766_772_300_000)
        #expect(sub.isTrialPeriod == true)
        #expect(sub.isInIntroOfferPeriod == false)
        #expect(sub.promotionalOfferIdentifier == "offer.½")
        #expect(sub.isSubscription)

        let coins = try #require(r.inAppPurchases.first { $0.productIdentifier == "com.example.coins" })
        #expect(coins.quantity == 1)
        #expect(coins.transactionIdentifier == "7")
        #expect(coins.purchaseDate.millisecondsSince1970 == 1_709_251_199_000)
        #expect(coins.originalTransactionIdentifier == nil)
        #expect(coins.originalPurchaseDate == nil)
        #expect(coins.productType == nil)
        #expect(coins.subscriptionExpirationDate == nil)
        #expect(coins.webOrderLineItemIdentifier == nil)
        #expect(coins.cancellationDate == nil, "TestReceipt writes an empty 1712: empty means absent")
        #expect(coins.isTrialPeriod == nil)
        #expect(coins.isInIntroOfferPeriod == nil)
        #expect(coins.promotionalOfferIdentifier == nil)
        #expect(!coins.isSubscription)
    }

    /// Every attribute stays available raw: type, version and value octets exactly as written.
    @Test func rawAttributes() throws {
        let r = try AppReceipt(Self.bytes)
        let d = Self.description
        var expected: [String] = [
            "0 " + Hex.string(TLV.utf8("ProductionSandbox")), "1 " + Hex.string(TLV.integer(Int64.max)),
            "2 " + Hex.string(TLV.utf8("com.example.roundtrip")), "3 " + Hex.string(TLV.utf8("3.14.15")),
            "4 deadbeef00010203", "12 " + Hex.string(TLV.ia5("2025-12-26T18:39:47Z")),
            "18 " + Hex.string(TLV.ia5("2013-08-01T07:00:00Z")), "19 " + Hex.string(TLV.utf8("1.0b7")),
            "21 " + Hex.string(TLV.ia5("2026-01-01T00:00:00Z")),
        ]
        expected += d.extraAttributes.map { "\($0.type) " + Hex.string($0.value) }
        let hash = try #require(r.attributes.first { $0.type == 5 })
        expected.append("5 " + Hex.string(r.value(of: hash)))
        let nonPurchases = r.attributes.filter { $0.type != 17 }
        #expect(nonPurchases.map { "\($0.type) " + Hex.string(r.value(of: $0)) }.sorted() == expected.sorted())
        #expect(r.attributes.filter { $0.type == 17 }.count == 2)
        #expect(r.attributes.allSatisfy { $0.version == 1 })

        let unknown = try #require(r.attributes.first { $0.type == 1000 })
        #expect(Array(r.value(of: unknown)) == TLV.utf8("unknown"))

        let sub = try #require(r.inAppPurchases.first { $0.productIdentifier == "com.example.sub" })
        let subTypes = r.attributes(of: sub).map(\.type).sorted()
        #expect(subTypes == [1701, 1702, 1703, 1704, 1705, 1706, 1707, 1708, 1711, 1712, 1713, 1719, 1721])
        let product = try #require(r.attributes(of: sub).first { $0.type == 1702 })
        #expect(Array(r.value(of: product)) == TLV.utf8("com.example.sub"))
        let coins = try #require(r.inAppPurchases.first { $0.productIdentifier == "com.example.coins" })
        #expect(r.attributes(of: coins).map(\.type).sorted() == [1701, 1702, 1703, 1704, 1712])
        #expect(r.inAppAttributes.count == 13 + 5)
    }

    /// Attribute versions other than 1 and undocumented in-app attributes are kept as they are.
    @Test func unknownAttributesAndVersionsAreKept() throws {
        var payload = Payload.app(purchases: [
            Payload.minimalPurchase() + [Attr(1709, TLV.utf8("")), Attr(1722, TLV.integer(42)), Attr(1800, [0x05, 0x00])]
        ])
        payload.attributes += [
            Attr(26, TLV.integer(7), version: 2), Attr(4000, Hex.bytes("01 02 03")),
            Attr(4000, Hex.bytes("04 05")), Attr(123_456_789, []),
        ]
        let bytes = Synthetic.sign(payload)
        let r = try AppReceipt(bytes)
        let extra = r.attributes.filter { [26, 4000, 123_456_789].contains($0.type) }
        #expect(
            extra.map { "\($0.type)/\($0.version)/" + Hex.string(r.value(of: $0)) }.sorted()
                == ["123456789/1/", "26/2/020107", "4000/1/010203", "4000/1/0405"])
        let purchase = try #require(r.inAppPurchases.first)
        let inner = r.attributes(of: purchase).filter { $0.type >= 1709 }
        #expect(inner.map { "\($0.type) " + Hex.string(r.value(of: $0)) }.sorted() == ["1709 0c00", "1722 02012a", "1800 0500"])
    }

    @Test func emptyStringsAreAbsent() throws {
        var payload = Payload.app(purchases: [
            Payload.minimalPurchase() + [
                Attr(1705, TLV.utf8("")), Attr(1706, TLV.ia5("")), Attr(1708, TLV.ia5("")),
                Attr(1712, TLV.ia5("")), Attr(1721, TLV.utf8("")),
            ]
        ])
        payload.replace(18, TLV.ia5(""))
        payload.replace(19, TLV.utf8(""))
        payload.attributes += [Attr(21, TLV.ia5("")), Attr(10, TLV.ia5("")), Attr(20, TLV.utf8("")), Attr(8, TLV.ia5(""))]
        let r = try AppReceipt(Synthetic.sign(payload))
        #expect(r.originalPurchaseDate == nil)
        #expect(r.originalAppVersion == nil)
        #expect(r.expirationDate == nil)
        #expect(r.ageRating == nil)
        #expect(r.undocumented.string20 == nil)
        #expect(r.undocumented.date8 == nil)
        let p = try #require(r.inAppPurchases.first)
        #expect(p.originalTransactionIdentifier == nil)
        #expect(p.originalPurchaseDate == nil)
        #expect(p.subscriptionExpirationDate == nil)
        #expect(p.cancellationDate == nil)
        #expect(p.promotionalOfferIdentifier == nil)
        #expect(!p.isSubscription)
    }

    /// Xcode writes SETs in its own order; the App Store sorts them. Both decode the same.
    @Test func unsortedSetsAreAccepted() throws {
        var unsorted = Self.description
        unsorted.unsorted = true
        let unsortedPayload = unsorted.payload()
        #expect(unsortedPayload != Self.description.payload(), "the test needs a payload that is not in DER order")
        let a = try AppReceipt(Synthetic.sign(unsortedPayload))
        let b = try AppReceipt(Self.bytes)
        #expect(Set(a.inAppPurchases.map(\.productIdentifier)) == Set(b.inAppPurchases.map(\.productIdentifier)))
        for purchase in a.inAppPurchases {
            let twin = try #require(b.inAppPurchases.first { $0.productIdentifier == purchase.productIdentifier })
            #expect(purchase == twin)
        }
        #expect(a.bundleIdentifier == b.bundleIdentifier)
        #expect(a.creationDate == b.creationDate)
        #expect(a.downloadIdentifier == b.downloadIdentifier)
        #expect(a.undocumented == b.undocumented)
        // Type 17 values differ (their inner SETs are in another order); the purchases are compared above.
        func raw(_ r: AppReceipt) -> [String] {
            r.attributes.filter { $0.type != 17 }.map { "\($0.type) " + Hex.string(r.value(of: $0)) }.sorted()
        }
        #expect(raw(a) == raw(b))
        func inAppRaw(_ r: AppReceipt) -> [String] { r.inAppAttributes.map { "\($0.type) " + Hex.string(r.value(of: $0)) }.sorted() }
        #expect(inAppRaw(a) == inAppRaw(b))
        #expect(validationError(a, deviceIdentifier: Self.device) == nil)

        var payload = Payload.app(purchases: [Payload.minimalPurchase()])
        payload.sorted = false
        payload.attributes.reverse()
        let reversed = try AppReceipt(Synthetic.sign(payload))
        #expect(reversed.bundleIdentifier == Payload.bundleIdentifier)
        #expect(reversed.attributes.first?.type == 17, "payload order is kept")
    }

    /// BER like Xcode's (indefinite lengths, eContent in segments) decodes exactly like DER.
    @Test(arguments: [1, 7, 100, 100_000])
    func berEnvelopeDecodesLikeDER(_ segment: Int) throws {
        let payload = Self.description.payload()
        let ber = try AppReceipt(Synthetic.sign(payload, berSegmentSize: segment))
        let der = try AppReceipt(Self.bytes)
        func raw(_ r: AppReceipt, _ list: [ReceiptAttribute]) -> [String] {
            list.map { "\($0.type)/\($0.version)/" + Hex.string(r.value(of: $0)) }
        }
        #expect(raw(ber, ber.attributes) == raw(der, der.attributes))
        #expect(raw(ber, ber.inAppAttributes) == raw(der, der.inAppAttributes))
        #expect(ber.inAppPurchases == der.inAppPurchases)
        #expect(ber.bundleIdentifier == der.bundleIdentifier)
        #expect(ber.creationDate == der.creationDate)
        #expect(Array(ber.opaqueValue) == Array(der.opaqueValue))
        #expect(Array(ber.sha1Hash) == Array(der.sha1Hash))
        #expect(ber.matchesDevice(Self.device))
        #expect(Array(ber.payloadStorage[ber.payloadRange]) == payload)
        #expect(Array(der.payloadStorage[der.payloadRange]) == payload)
    }
}

/// The date forms receipts carry (RFC 3339, and Xcode's variants) against milliseconds computed
/// independently (Python's calendar.timegm).
struct RFC3339Tests {
    static let accepted: [(text: String, milliseconds: Int64)] = [
        ("2024-02-23T17:27:16Z", 1_708_709_236_000),
        ("2020-07-22T18:33:15+0100", 1_595_439_195_000),
        ("2020-07-22T18:33:15+01:00", 1_595_439_195_000),
        ("2020-07-22T18:33:15-0800", 1_595_471_595_000),
        ("2020-07-22T18:33:15-08:00", 1_595_471_595_000),
        ("2020-07-22T17:33:15+0000", 1_595_439_195_000),
        ("2020-07-22T17:33:15-00:00", 1_595_439_195_000),
        ("2020-07-22T18:33:15.5Z", 1_595_442_795_500),
        ("2020-07-22T18:33:15.123456Z", 1_595_442_795_123),
        ("2020-07-22T18:33:15.1Z", 1_595_442_795_100),
        ("2021-12-31T23:59:59.25+05:30", 1_640_975_399_250),
        ("4001-01-01T00:00:00+0000", 64_092_211_200_000),
        ("4001-01-01T00:00:00Z", 64_092_211_200_000),
        ("2024-02-29T23:59:59Z", 1_709_251_199_000),
        ("2000-02-29T12:00:00Z", 951_825_600_000),
        ("2100-03-01T00:00:00Z", 4_107_542_400_000),
        ("1970-01-01T00:00:00Z", 0),
        ("2038-01-19T03:14:08Z", 2_147_483_648_000),
        ("2024-02-23t17:27:16z", 1_708_709_236_000),   // RFC 3339 §5.6 note: t and z may be lower case
        ("9999-12-31T23:59:59Z", 253_402_300_799_000),   // RFC 3339's last year
        ("0001-01-01T00:00:00Z", -62_135_596_800_000),
        ("1969-07-20T20:17:40Z", -14_182_940_000),
        ("1969-12-31T23:59:59.5Z", -500),
    ]

    @Test func acceptedForms() throws {
        // One receipt: each form is the purchase date of its own purchase, named by index.
        let purchases = Self.accepted.enumerated().map { index, entry in
            Payload.minimalPurchase(product: "p\(index)", transaction: "\(index)", date: entry.text)
        }
        let r = try AppReceipt(Synthetic.sign(Payload.app(purchases: purchases)))
        #expect(r.inAppPurchases.count == Self.accepted.count)
        for (index, entry) in Self.accepted.enumerated() {
            let purchase = try #require(r.inAppPurchases.first { $0.productIdentifier == "p\(index)" })
            #expect(purchase.purchaseDate.millisecondsSince1970 == entry.milliseconds, "\(entry.text)")
        }
    }

    @Test func xcodeFormsAsCreationAndExpirationDates() throws {
        var payload = Payload.app(creationDate: "2020-07-22T18:33:15+0100")
        payload.attributes.append(Attr(21, TLV.ia5("4001-01-01T00:00:00+0000")))
        let r = try AppReceipt(Synthetic.sign(payload))
        #expect(r.creationDate.millisecondsSince1970 == 1_595_439_195_000)
        #expect(r.expirationDate?.millisecondsSince1970 == 64_092_211_200_000)
    }

    static let rejected = [
        "2024-13-01T00:00:00Z",   // month 13
        "2024-00-10T00:00:00Z",   // month 0
        "2024-02-30T00:00:00Z",   // no such day
        "2023-02-29T00:00:00Z",   // not a leap year
        "2024-02-23T24:00:00Z",   // hour 24
        "2024-02-23T17:60:00Z",   // minute 60
        "2024-02-23T17:27:16",   // no zone
        "2024-02-23T17:27:16+01",   // incomplete offset
        "2024-02-23T17:27:16+24:00",   // offset hour 24
        "2024-02-23T17:27:16.Z",   // empty fraction
        "2024-02-23T17:27:16Z ",   // trailing space
        "2024-2-23T17:27:16Z",   // one-digit month
        "2024-02-23",   // date only
        "garbage",
        "20240223T172716Z",   // ISO 8601 basic format is not RFC 3339
    ]

    @Test(arguments: rejected)
    func rejectedForms(_ text: String) throws {
        let payload = Payload.app(creationDate: text)
        let bytes = Synthetic.sign(payload)
        let attribute = Attr(12, TLV.ia5(text)).encoded
        let at = try #require(offset(of: attribute, in: bytes))
        #expect(decodingError(bytes) == .invalidAttribute(type: 12, offset: at), "\(text)")
    }
}

/// Missing, duplicate and mistyped attributes are typed errors located at the element at fault.
struct MalformedPayloadTests {
    /// Offset of the payload SET (the eContent's content) in a DER receipt.
    static func payloadOffset(_ payload: Payload, in bytes: [UInt8]) throws -> Int {
        try #require(offset(of: payload.encoded, in: bytes))
    }

    @Test(arguments: [2, 3, 4, 5, 12])
    func missingRequiredAttribute(_ type: Int) throws {
        var payload = Payload.app()
        payload.remove(type)
        let bytes = Synthetic.sign(payload)
        #expect(decodingError(bytes) == .missingAttribute(type: type, offset: try Self.payloadOffset(payload, in: bytes)))
    }

    /// An empty string is absent, so an empty required string is missing.
    @Test(arguments: [(2, TLV.utf8("")), (3, TLV.utf8("")), (12, TLV.ia5(""))])
    func emptyRequiredString(_ type: Int, _ value: [UInt8]) throws {
        var payload = Payload.app()
        payload.replace(type, value)
        let bytes = Synthetic.sign(payload)
        #expect(decodingError(bytes) == .missingAttribute(type: type, offset: try Self.payloadOffset(payload, in: bytes)))
    }

    /// ReceiptError.missingAttribute documents "absent or empty" for the opaque value and hash too.
    @Test(arguments: [4, 5])
    func emptyOpaqueValueOrHash(_ type: Int) throws {
        var payload = Payload.app()
        payload.replace(type, [])
        let bytes = Synthetic.sign(payload)
        let expected = ReceiptError.missingAttribute(type: type, offset: try Self.payloadOffset(payload, in: bytes))
        #expect(decodingError(bytes) == expected)
    }

    @Test(arguments: [1702, 1703, 1704])
    func inAppMissingRequiredAttribute(_ type: Int) throws {
        let inner = Payload.minimalPurchase().filter { $0.type != type }
        let purchase = Payload.purchase(inner)
        var payload = Payload.app()
        payload.attributes.append(purchase)
        let bytes = Synthetic.sign(payload)
        let at = try #require(offset(of: purchase.encoded, in: bytes))
        #expect(decodingError(bytes) == .missingAttribute(type: type, offset: at))
    }

    @Test func inAppEmptyProductIdentifier() throws {
        let inner = Payload.minimalPurchase().filter { $0.type != 1702 } + [Attr(1702, TLV.utf8(""))]
        let purchase = Payload.purchase(inner)
        var payload = Payload.app()
        payload.attributes.append(purchase)
        let bytes = Synthetic.sign(payload)
        let at = try #require(offset(of: purchase.encoded, in: bytes))
        #expect(decodingError(bytes) == .missingAttribute(type: 1702, offset: at))
    }

    @Test(arguments: [2, 3, 12, 0, 1, 19])
    func duplicateAppAttribute(_ type: Int) throws {
        var payload = Payload.app()
        let values: [Int: [UInt8]] = [
            2: TLV.utf8("com.example.second"), 3: TLV.utf8("9.9"), 12: TLV.ia5("2024-01-01T00:00:00Z"),
            0: TLV.utf8("Sandbox"), 1: TLV.integer(5), 19: TLV.utf8("2.0"),
        ]
        let second = Attr(type, try #require(values[type]))
        payload.attributes.append(second)
        let bytes = Synthetic.sign(payload)
        // The later of the two in the encoded SET is the duplicate.
        let first = try #require(payload.attributes.first { $0.type == type })
        let offsets = [try #require(offset(of: first.encoded, in: bytes)), try #require(offset(of: second.encoded, in: bytes))]
        #expect(decodingError(bytes) == .duplicateAttribute(type: type, offset: offsets.max()!))
    }

    @Test func duplicateInAppAttribute() throws {
        let extra = Attr(1702, TLV.utf8("com.example.other"))
        var payload = Payload.app()
        payload.attributes.append(Payload.purchase(Payload.minimalPurchase() + [extra]))
        let bytes = Synthetic.sign(payload)
        let a = try #require(offset(of: Attr(1702, TLV.utf8("com.example.product")).encoded, in: bytes))
        let b = try #require(offset(of: extra.encoded, in: bytes))
        #expect(decodingError(bytes) == .duplicateAttribute(type: 1702, offset: max(a, b)))
    }

    /// A documented field whose value is not its ASN.1 type.
    static let mistyped: [(type: Int, value: [UInt8], note: String)] = [
        (2, TLV.ia5("com.example.payload"), "bundle id as IA5String"),
        (2, TLV.utf8("com.example.payload") + [0x00], "bytes after the UTF8String"),
        (2, TLV.encode(0x0C, [0xC3, 0x28]), "invalid UTF-8"),
        (3, TLV.octets(Array("7.1".utf8)), "app version as OCTET STRING"),
        (0, TLV.integer(1), "environment as INTEGER"),
        (1, TLV.utf8("987654321"), "app item id as UTF8String"),
        (1, TLV.encode(0x02, []), "empty INTEGER"),
        (15, Hex.bytes("02 09 00 80 00 00 00 00 00 00 00"), "download id 2^63 does not fit 64 bits"),
        (12, TLV.utf8("2024-02-23T17:27:16Z"), "creation date as UTF8String"),
        (18, TLV.integer(1_471_360_543), "original purchase date as INTEGER"),
        (19, TLV.ia5("1.0"), "original app version as IA5String"),
        (21, TLV.utf8("4001-01-01T00:00:00Z"), "expiration date as UTF8String"),
    ]

    @Test(arguments: 0 ..< mistyped.count)
    func mistypedAppAttribute(_ index: Int) throws {
        let entry = Self.mistyped[index]
        var payload = Payload.app()
        payload.replace(entry.type, entry.value)
        let bytes = Synthetic.sign(payload)
        let at = try #require(offset(of: Attr(entry.type, entry.value).encoded, in: bytes))
        #expect(decodingError(bytes) == .invalidAttribute(type: entry.type, offset: at), "\(entry.note)")
    }

    static let mistypedInApp: [(type: Int, value: [UInt8], note: String)] = [
        (1701, TLV.utf8("1"), "quantity as UTF8String"),
        (1702, TLV.ia5("com.example.product"), "product id as IA5String"),
        (1704, TLV.integer(1_704_067_200), "purchase date as INTEGER"),
        (1708, TLV.ia5("2024-13-01T00:00:00Z"), "expiration in month 13"),
        (1711, TLV.utf8("200"), "web order line item id as UTF8String"),
        (1713, TLV.integer(2), "trial period neither 0 nor 1"),
        (1719, TLV.integer(-1), "intro offer period neither 0 nor 1"),
    ]

    @Test(arguments: 0 ..< mistypedInApp.count)
    func mistypedInAppAttribute(_ index: Int) throws {
        let entry = Self.mistypedInApp[index]
        let inner = Payload.minimalPurchase().filter { $0.type != entry.type } + [Attr(entry.type, entry.value)]
        var payload = Payload.app()
        payload.attributes.append(Payload.purchase(inner))
        let bytes = Synthetic.sign(payload)
        let at = try #require(offset(of: Attr(entry.type, entry.value).encoded, in: bytes))
        #expect(decodingError(bytes) == .invalidAttribute(type: entry.type, offset: at), "\(entry.note)")
    }

    /// Structural faults in the payload: not a SET, a purchase that is not a SET, extra fields,
    /// trailing bytes. Each is a `ReceiptError.payload`.
    @Test func structuralFaults() throws {
        let good = Payload.app()
        var cases: [(String, [UInt8])] = []
        cases.append(("payload is a SEQUENCE", [0x30] + good.encoded.dropFirst()))
        cases.append(("bytes after the payload SET", good.encoded + [0x05, 0x00]))
        var notSet = good
        notSet.attributes.append(Attr(17, TLV.integer(1)))
        cases.append(("purchase value is an INTEGER", notSet.encoded))
        let fourFields = TLV.sequence([TLV.integer(99), TLV.integer(1), TLV.octets([]), TLV.integer(0)])
        cases.append(("attribute with a fourth field", TLV.set(good.attributes.map(\.encoded) + [fourFields])))
        let valueNotOctets = TLV.sequence([TLV.integer(99), TLV.integer(1), TLV.utf8("x")])
        cases.append(("value is not an OCTET STRING", TLV.set(good.attributes.map(\.encoded) + [valueNotOctets])))
        let hugeType = TLV.sequence([Hex.bytes("02 09 01 00 00 00 00 00 00 00 00"), TLV.integer(1), TLV.octets([])])
        cases.append(("type beyond 64 bits", TLV.set(good.attributes.map(\.encoded) + [hugeType])))
        for (note, payload) in cases {
            let error = decodingError(Synthetic.sign(payload))
            guard case .payload = error else {
                Issue.record("\(note): expected a payload error, got \(String(describing: error))")
                continue
            }
        }
    }
}

/// Hostile or unrelated input: every failure is a `ReceiptError`, never a crash.
struct HostileInputTests {
    static let small: [UInt8] = Synthetic.sign(Payload.app(purchases: [Payload.minimalPurchase()]))

    @Test func garbage() {
        var generator = SplitMix64(seed: 0x5EED)
        var inputs: [[UInt8]] = [
            [], [0x00], [0x30], [0x30, 0x80], [0x30, 0x80, 0x00, 0x00], [0x30, 0x00],
            [UInt8](repeating: 0xFF, count: 100), [0x30, 0x84, 0xFF, 0xFF, 0xFF, 0xFF],
            [0x30, 0x89, 0x01, 0, 0, 0, 0, 0, 0, 0, 0], Array("MIIT".utf8),
        ]
        for length in [1, 2, 16, 1000] {
            inputs.append((0 ..< length).map { _ in UInt8(truncatingIfNeeded: generator.next()) })
        }
        for input in inputs {
            #expect(decodingError(input) != nil, "\(Hex.string(input.prefix(16)))")
        }
    }

    /// Every proper prefix of a receipt is malformed.
    @Test func everyTruncationFails() {
        let bytes = Self.small
        for length in 0 ..< bytes.count {
            let error = decodingError(Array(bytes.prefix(length)))
            if error == nil { Issue.record("prefix of \(length) bytes decoded") }
        }
        #expect(decodingError(bytes) == nil)
    }

    @Test(.enabled(if: Fixtures.shouldRun))
    func everyTruncationOfFixturesFails() throws {
        let bytes = try Fixtures.bytes("receipts/xcode.der")
        for length in 0 ..< bytes.count where decodingError(Array(bytes.prefix(length))) == nil {
            Issue.record("prefix of \(length) bytes of xcode.der decoded")
        }
        let production = try Fixtures.bytes("receipts/production.der")
        for length in stride(from: 0, to: production.count, by: 7) where decodingError(Array(production.prefix(length))) == nil {
            Issue.record("prefix of \(length) bytes of production.der decoded")
        }
    }

    /// Each byte of a receipt flipped in turn: decoding either succeeds or throws, never traps.
    @Test func everyByteFlipIsHandled() {
        let bytes = Self.small
        var decoded = 0
        for index in bytes.indices {
            var copy = bytes
            copy[index] ^= 0xFF
            if decodingError(copy) == nil { decoded += 1 }
        }
        #expect(decoded < bytes.count)
    }

    @Test func emptyContent() {
        #expect(decodingError(Synthetic.sign([])) != nil)
    }

    @Test func trailingBytesAfterTheEnvelope() {
        #expect(decodingError(Self.small + [0x00]) != nil)
        #expect(decodingError(Self.small + Self.small) != nil)
    }

    @Test func inputSizeLimit() {
        let limit = ReceiptLimits.maxInputSize
        let tooLarge = [UInt8](repeating: 0x30, count: limit + 1)
        #expect(decodingError(tooLarge) == .inputTooLarge(count: limit + 1))
        let atLimit = [UInt8](repeating: 0x30, count: limit)
        let error = decodingError(atLimit)
        #expect(error != nil)
        #expect(error != .inputTooLarge(count: limit))
        // 0xFF is not base64 text, so this stays binary and too large.
        do {
            _ = try AppReceipt(binaryOrBase64: [UInt8](repeating: 0xFF, count: limit + 1))
            Issue.record("an oversized input decoded")
        } catch {
            #expect(error == .inputTooLarge(count: limit + 1))
        }
    }

    @Test func certificateIsNotAReceipt() {
        guard case .envelope = decodingError(Synthetic.rootCertificate) else {
            Issue.record("a certificate must be an envelope error")
            return
        }
    }
}

/// Receipts as apps and servers hold them: binary, base64 (with or without line breaks), PEM-ish.
struct InputFormTests {
    static let bytes: [UInt8] = HostileInputTests.small

    static func check(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        do {
            let r = try AppReceipt(binaryOrBase64: Array(text.utf8))
            #expect(r.bundleIdentifier == Payload.bundleIdentifier, sourceLocation: sourceLocation)
            #expect(
                Array(r.payloadStorage[r.payloadRange]) == Payload.app(purchases: [Payload.minimalPurchase()]).encoded,
                sourceLocation: sourceLocation)
            let viaData = try AppReceipt(data: Data(text.utf8))
            #expect(viaData.bundleIdentifier == Payload.bundleIdentifier, sourceLocation: sourceLocation)
        } catch {
            Issue.record("did not decode: \(error)", sourceLocation: sourceLocation)
        }
    }

    @Test func binary() throws {
        #expect(try AppReceipt(binaryOrBase64: Self.bytes).bundleIdentifier == Payload.bundleIdentifier)
        #expect(try AppReceipt(data: Data(Self.bytes)).bundleIdentifier == Payload.bundleIdentifier)
    }

    @Test func base64Forms() {
        let data = Data(Self.bytes)
        Self.check(data.base64EncodedString())
        Self.check(data.base64EncodedString(options: .lineLength64Characters))
        Self.check(data.base64EncodedString(options: [.lineLength76Characters, .endLineWithCarriageReturn, .endLineWithLineFeed]))
        Self.check("  \n\t" + data.base64EncodedString(options: .lineLength64Characters) + "\n\n")
        Self.check("-----BEGIN PKCS7-----\n" + data.base64EncodedString(options: .lineLength64Characters) + "\n-----END PKCS7-----\n")
        Self.check(
            "-----BEGIN RECEIPT-----\r\n"
                + data.base64EncodedString(options: [.lineLength64Characters, .endLineWithCarriageReturn, .endLineWithLineFeed])
                + "\r\n-----END RECEIPT-----")
    }

    @Test func badText() {
        for text in ["", "!!!!", "abc", "-----BEGIN PKCS7-----\n@@@@\n-----END PKCS7-----", "TWFu", "   "] {
            #expect((try? AppReceipt(binaryOrBase64: Array(text.utf8))) == nil, "\(text)")
        }
    }

    @Test(.enabled(if: Fixtures.shouldRun))
    func fixtureAsBase64() throws {
        let bytes = try Fixtures.bytes("receipts/production.der")
        let text = Data(bytes).base64EncodedString(options: .lineLength64Characters)
        let r = try AppReceipt(binaryOrBase64: Array(text.utf8))
        #expect(r.bundleIdentifier == "org.getpure.pure-iphone")
        #expect(validationError(r, policy: .appStore) == nil)
    }
}

/// BER forms inside the payload (what a BER writer such as Xcode's may produce) and the
/// encodings BER itself forbids.
struct BERPayloadTests {
    /// An in-app purchase whose product id attribute value is `value`, decoded.
    static func product(_ value: [UInt8]) throws -> String {
        let inner = Payload.minimalPurchase().filter { $0.type != 1702 } + [Attr(1702, value)]
        let r = try AppReceipt(Synthetic.sign(Payload.app(purchases: [inner])))
        return try #require(r.inAppPurchases.first).productIdentifier
    }

    @Test func longFormLength() throws {
        #expect(try Self.product([0x0C, 0x81, 0x03] + Array("abc".utf8)) == "abc")
        #expect(try Self.product([0x0C, 0x82, 0x00, 0x03] + Array("abc".utf8)) == "abc")
    }

    @Test func constructedStrings() throws {
        let pieces = TLV.utf8("a") + TLV.utf8("bc")
        #expect(try Self.product([0x2C, 0x80] + pieces + [0x00, 0x00]) == "abc")
        #expect(try Self.product(TLV.encode(0x2C, pieces)) == "abc")
        // A constructed IA5String date.
        let date = [0x36, 0x80] + TLV.ia5("2024-01-01") + TLV.ia5("T00:00:00Z") + [0x00, 0x00]
        let inner = Payload.minimalPurchase().filter { $0.type != 1704 } + [Attr(1704, date)]
        let r = try AppReceipt(Synthetic.sign(Payload.app(purchases: [inner])))
        #expect(r.inAppPurchases.first?.purchaseDate.millisecondsSince1970 == 1_704_067_200_000)
    }

    @Test func longValues() throws {
        let bundle = "com.example." + String(repeating: "x", count: 300)
        let payload = Payload.app(bundleIdentifier: bundle, purchases: [Payload.minimalPurchase(product: String(repeating: "p", count: 200))])
        let r = try AppReceipt(Synthetic.sign(payload))
        #expect(r.bundleIdentifier == bundle)
        #expect(r.matchesDevice(Payload.deviceIdentifier), "the hash covers the long-form UTF8String as carried")
        #expect(r.inAppPurchases.first?.productIdentifier == String(repeating: "p", count: 200))
        #expect(validationError(r, bundleIdentifier: bundle, deviceIdentifier: Payload.deviceIdentifier) == nil)
    }

    @Test func indefiniteLengthSetsAndSequences() throws {
        let payload = Payload.app(purchases: [Payload.minimalPurchase()])
        let attributes = payload.attributes.map(\.encoded)
        // The payload SET and one attribute SEQUENCE with indefinite lengths.
        let bundle = try #require(payload.attributes.first { $0.type == 2 })
        let indefiniteBundle: [UInt8] = [0x30, 0x80] + TLV.integer(2) + TLV.integer(1) + TLV.octets(bundle.value) + [0x00, 0x00]
        let others: [[UInt8]] = payload.attributes.filter { $0.type != 2 }.map(\.encoded)
        let ber: [UInt8] = [0x31, 0x80] + (others + [indefiniteBundle]).joined() + [0x00, 0x00]
        let a = try AppReceipt(Synthetic.sign(ber))
        let b = try AppReceipt(Synthetic.sign(TLV.set(attributes)))
        #expect(a.bundleIdentifier == b.bundleIdentifier)
        #expect(a.inAppPurchases == b.inAppPurchases)
        #expect(a.matchesDevice(Payload.deviceIdentifier))
        #expect(a.attributes.count == b.attributes.count)
    }

    /// X.690 §8.3.2 forbids redundant leading octets in every INTEGER, BER included.
    @Test func nonMinimalIntegerValue() throws {
        let value: [UInt8] = [0x02, 0x02, 0x00, 0x05]
        let inner = Payload.minimalPurchase().filter { $0.type != 1701 } + [Attr(1701, value)]
        var payload = Payload.app()
        payload.attributes.append(Payload.purchase(inner))
        let bytes = Synthetic.sign(payload)
        let at = try #require(offset(of: Attr(1701, value).encoded, in: bytes))
        #expect(decodingError(bytes) == .invalidAttribute(type: 1701, offset: at))
    }

    @Test func nonMinimalAttributeType() {
        let payload = Payload.app()
        let odd = TLV.sequence([[0x02, 0x02, 0x00, 0x63], TLV.integer(1), TLV.octets([])])   // type 99 as 00 63
        let bytes = Synthetic.sign(TLV.set(payload.attributes.map(\.encoded) + [odd]))
        guard case .payload = decodingError(bytes) else {
            Issue.record("expected a payload error, got \(String(describing: decodingError(bytes)))")
            return
        }
    }

    @Test func constructedAttributeValue() {
        let payload = Payload.app()
        let constructed = TLV.sequence([TLV.integer(99), TLV.integer(1), TLV.encode(0x24, TLV.octets([1]))])
        let bytes = Synthetic.sign(TLV.set(payload.attributes.map(\.encoded) + [constructed]))
        guard case .payload = decodingError(bytes) else {
            Issue.record("expected a payload error, got \(String(describing: decodingError(bytes)))")
            return
        }
    }

    /// `ReceiptLimits.maxAttributesPerSet` attributes are fine; one more is `tooManyElements`
    /// at the first attribute past the limit.
    @Test func attributesPerSetLimit() throws {
        let limit = ReceiptLimits.maxAttributesPerSet
        var payload = Payload.app()
        let base = payload.attributes.count
        payload.attributes += (0 ..< limit - base).map { Attr(10_000 + $0, []) }
        let atLimit = try AppReceipt(Synthetic.sign(payload))
        #expect(atLimit.attributes.count == limit)

        payload.attributes.append(Attr(99_999, []))
        let encodings = payload.attributes.map(\.encoded).sorted { $0.lexicographicallyPrecedes($1) }
        let set = payload.encoded
        let bytes = Synthetic.sign(set)
        let start = try #require(offset(of: set, in: bytes))
        let header = set.count - encodings.reduce(0) { $0 + $1.count }
        let expected = start + header + encodings.prefix(limit).reduce(0) { $0 + $1.count }
        #expect(decodingError(bytes) == .tooManyElements(offset: expected))
    }
}

/// A receipt with many purchases (SyntheticReceipts' weekly renewals) answers queries by construction.
struct LargeReceiptTests {
    static let count = 1000
    static let week: Int64 = 7 * 86_400
    static let start: Int64 = 1_600_000_000
    static let receipt: AppReceipt = {
        do { return try AppReceipt(Synthetic.sign(SyntheticReceipts.payload(inAppCount: count))) } catch { preconditionFailure("\(error)") }
    }()

    @Test func everyPurchaseDecodes() {
        let r = Self.receipt
        #expect(r.inAppPurchases.count == Self.count)
        #expect(r.inAppAttributes.count >= Self.count * 10)
        let ids = Set(r.inAppPurchases.map(\.transactionIdentifier))
        #expect(ids == Set((0 ..< Self.count).map { String(1_000_000_000_000_000 + $0) }))
        #expect(r.inAppPurchases.filter { $0.isTrialPeriod == true }.map(\.transactionIdentifier) == ["1000000000000000"])
    }

    @Test func queries() {
        let r = Self.receipt
        let product = "com.example.receipts.subscription.weekly"
        let all = r.purchases(of: product)
        #expect(all.count == Self.count)
        #expect(all.first?.transactionIdentifier == String(1_000_000_000_000_000 + Self.count - 1))
        #expect(zip(all, all.dropFirst()).allSatisfy { $0.purchaseDate > $1.purchaseDate })
        #expect(r.activeAutoRenewableSubscription(at: instant((Self.start - 1) * 1000)) == nil)
        for k in [0, 1, 499, 998, 999] {
            let periodStart = Self.start + Int64(k) * Self.week
            let expected = String(1_000_000_000_000_000 + k)
            #expect(r.activeAutoRenewableSubscription(product, at: instant(periodStart * 1000))?.transactionIdentifier == expected)
            #expect(r.activeAutoRenewableSubscription(at: instant((periodStart + Self.week) * 1000 - 1))?.transactionIdentifier == expected)
        }
        #expect(r.activeAutoRenewableSubscription(at: instant((Self.start + Int64(Self.count) * Self.week) * 1000)) == nil)
        #expect(r.latestExpirationDates() == [product: instant((Self.start + Int64(Self.count) * Self.week) * 1000)])
        #expect(r.cancelledPurchases().isEmpty)
    }

    @Test func json() throws {
        let response = try jsonObject(ReceiptJSON.response(Self.receipt))
        let inApp = try #require((response["receipt"] as? [String: Any])?["in_app"] as? [[String: Any]])
        #expect(inApp.count == Self.count)
    }
}
