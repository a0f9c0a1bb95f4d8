import AppReceipt
import CryptoPrimitives
import DER
import Foundation
import PKCS7
import X509Certificates

/// `receipt`: `AppReceipt` decoding and validation under every policy, on any input (and, when
/// the input is base64 or PEM text, on what it decodes to).
///
/// - A failure is the envelope's own error, or an offset inside the payload (the content range
///   of the input, or of the joined segments when BER splits the content); a missing attribute is
///   a required one.
/// - A decoded receipt: the envelope satisfies the `pkcs7` invariants; the payload storage and
///   range are the input's content (or the joined segments); every attribute, app-level and in-app,
///   is what an independent BER reading of the payload finds (offset, type, version, value range),
///   adjacent, inside the payload and inside its purchase; purchases map in order onto the type-17
///   attributes and their index ranges cover `inAppAttributes` without gap or overlap; the
///   resource bounds hold; documented attributes appear at most once, required ones exactly once,
///   and every typed field equals an independent decoding of its raw attribute.
/// - Queries agree with the purchases they summarise; the JSON parses, with the right status,
///   bundle id and purchase count; `matchesDevice` is SHA-1(device ‖ opaque ‖ bundle id) = hash.
/// - Validation (appStore, xcode, appStore and custom trusting the synthetic root) fails only as
///   `untrusted`, never as a malformed certificate (decoding parsed them all); it succeeds only for genuinely
///   signed payloads and certificates of that policy's family; after success the bundle id, app
///   version and device steps answer as the decoded fields say; success under the App Store rules
///   with the synthetic root implies success under the looser custom policy.
enum ReceiptHarness {
    static let check = Checker(harness: "receipt")

    static func check(_ input: UnsafeRawBufferPointer) throws(InvariantViolation) {
        let bytes = Array(input)
        try checkReceipt(bytes)
        let decoded = ReceiptInput.decode(bytes)
        if decoded != bytes {
            try checkReceipt(decoded)
            let viaText = Result { () throws(ReceiptError) in try AppReceipt(binaryOrBase64: bytes).payloadRange }
            let direct = Result { () throws(ReceiptError) in try AppReceipt(decoded).payloadRange }
            try check.expect(viaText == direct, "AppReceipt(binaryOrBase64:) differs from decoding the text first")
        }
    }

    static func checkReceipt(_ bytes: [UInt8]) throws(InvariantViolation) {
        let receipt: AppReceipt
        do {
            receipt = try AppReceipt(bytes)
        } catch {
            try checkError(error, bytes)
            return
        }
        try checkDecoded(receipt, bytes)
        try checkValidation(receipt, bytes)
    }

    // MARK: Errors

    static let requiredApp: Set<Int> = [2, 3, 4, 5, 12]
    static let requiredInApp: Set<Int> = [1702, 1703, 1704]
    static let documentedApp: Set<Int> = [0, 1, 2, 3, 4, 5, 8, 9, 10, 11, 12, 13, 14, 15, 16, 18, 19, 20, 21, 25]
    static let documentedInApp: Set<Int> = [1701, 1702, 1703, 1704, 1705, 1706, 1707, 1708, 1711, 1712, 1713, 1719, 1721]

    static func checkError(_ error: ReceiptError, _ bytes: [UInt8]) throws(InvariantViolation) {
        _ = error.description
        let envelope = Result { () throws(PKCS7Error) in try SignedData(berEncoded: bytes) }
        switch error {
        case .inputTooLarge(let count):
            try check.expect(count == bytes.count && count > ReceiptLimits.maxInputSize, "inputTooLarge(\(count)) for \(bytes.count) bytes")
            return
        case .envelope(let inner):
            try check.expect(offset: inner.offset, within: 0 ..< bytes.count, "envelope")
            guard case .failure(let same) = envelope, same == inner else {
                throw check.fail("envelope error \(inner) is not SignedData's own (\(envelope))")
            }
            return
        default:
            break
        }
        guard case .success(let signedData) = envelope else { throw check.fail("payload error \(error) for an envelope that does not decode") }
        let bounds = signedData.contentRange ?? 0 ..< signedData.contentCount
        let offset: Int
        switch error {
        case .payload(let inner): offset = inner.offset
        case .invalidAttribute(let type, let at), .duplicateAttribute(let type, let at):
            offset = at
            try check.expect(documentedApp.contains(type) || documentedInApp.contains(type), "\(error) for an undocumented type")
        case .missingAttribute(let type, let at):
            offset = at
            try check.expect(requiredApp.contains(type) || requiredInApp.contains(type), "missing attribute \(type) is not required")
        case .tooManyElements(let at): offset = at
        case .inputTooLarge, .envelope: return
        }
        try check.expect(offset: offset, within: bounds, "\(error)")
    }

    // MARK: Decoded receipt

    /// One `ReceiptAttribute` as an independent BER reading finds it.
    struct RawAttribute: Equatable {
        var offset: Int
        var end: Int
        var type: Int
        var version: Int
        var valueRange: Range<Int>
    }

    /// The attributes of the SET encoded in `storage[range]`, read with the general BER reader.
    static func readSet(_ storage: UnsafeRawBufferPointer, _ range: Range<Int>) -> (set: Range<Int>, attributes: [RawAttribute])? {
        do throws(ASN1Error) {
            var outer = ASN1Reader(UnsafeRawBufferPointer(rebasing: storage[range]), rules: .ber, baseOffset: range.lowerBound)
            let set = try outer.read(.set)
            try outer.finish()
            var entries = try set.children()
            var attributes: [RawAttribute] = []
            while !entries.isAtEnd {
                let sequence = try entries.read(.sequence)
                var fields = try sequence.children()
                let type = try fields.readInt64()
                let version = try fields.readInt64()
                let value = try fields.read(.octetString)
                try fields.finish()
                guard !value.tag.isConstructed, let t = Int(exactly: type), let v = Int(exactly: version) else { return nil }
                attributes.append(
                    RawAttribute(
                        offset: sequence.offset, end: sequence.range.upperBound, type: t, version: v,
                        valueRange: value.contentRange))
            }
            return (set.contentRange, attributes)
        } catch {
            return nil
        }
    }

    static func checkDecoded(_ r: AppReceipt, _ bytes: [UInt8]) throws(InvariantViolation) {
        let signedData = r.signedData
        try PKCS7Harness.checkDecoded(signedData, bytes, check: check, certificates: false)
        let storage = r.payloadStorage
        if let contentRange = signedData.contentRange {
            try check.expect(storage == bytes && r.payloadRange == contentRange, "payload is not the content in place")
        } else {
            try check.expect(storage == signedData.contentBytes() && r.payloadRange == 0 ..< storage.count, "payload is not the joined content")
        }
        try check.expect(
            r.attributes.count - r.inAppPurchases.count <= ReceiptLimits.maxAttributesPerSet,
            "\(r.attributes.count - r.inAppPurchases.count) app-level attributes besides purchases accepted")
        try check.expect(r.inAppPurchases.count <= ReceiptLimits.maxInAppPurchases, "\(r.inAppPurchases.count) purchases accepted")

        let result: Result<Void, InvariantViolation> = storage.withUnsafeBytes { raw in
            Result { () throws(InvariantViolation) in try checkAttributes(r, raw) }
        }
        try result.get()
        try checkQueries(r)
        try checkJSON(r)
        try checkDevice(r)
    }

    /// Raw attributes against an independent reading, and typed fields against their raw values.
    static func checkAttributes(_ r: AppReceipt, _ raw: UnsafeRawBufferPointer) throws(InvariantViolation) {
        guard let (set, app) = readSet(raw, r.payloadRange) else { throw check.fail("decoded payload is not a SET OF ReceiptAttribute") }
        try compare(r.attributes, app, set: set, what: "app-level")

        // Purchases: one per type-17 attribute, in order, covering inAppAttributes.
        let purchaseAttributes = r.attributes.filter { $0.type == 17 }
        try check.expect(
            purchaseAttributes.count == r.inAppPurchases.count, "\(purchaseAttributes.count) type-17 attributes, \(r.inAppPurchases.count) purchases")
        var next = 0
        for (attribute, purchase) in zip(purchaseAttributes, r.inAppPurchases) {
            let indexes = purchase.attributeIndexes
            try check.expect(indexes.lowerBound == next && indexes.upperBound <= r.inAppAttributes.count, "purchase attribute indexes \(indexes)")
            next = indexes.upperBound
            try check.expect(indexes.count <= ReceiptLimits.maxAttributesPerSet, "\(indexes.count) attributes in one purchase accepted")
            guard let (inner, rawInApp) = readSet(raw, attribute.valueRange) else {
                throw check.fail("a decoded purchase is not a SET OF ReceiptAttribute")
            }
            let own = Array(r.attributes(of: purchase))
            try compare(own, rawInApp, set: inner, what: "in-app")
            for item in own { try check.expect(item.valueRange, within: attribute.valueRange, "in-app value") }
            try checkPurchase(purchase, own, raw)
        }
        try check.expect(next == r.inAppAttributes.count, "purchases cover \(next) of \(r.inAppAttributes.count) in-app attributes")

        // App-level typed fields.
        var byType: [Int: [ReceiptAttribute]] = [:]
        for attribute in r.attributes { byType[attribute.type, default: []].append(attribute) }
        for type in documentedApp { try check.expect((byType[type]?.count ?? 0) <= 1, "attribute \(type) accepted twice") }
        for type in requiredApp { try check.expect(byType[type]?.count == 1, "required attribute \(type) absent") }
        func one(_ type: Int) -> ReceiptAttribute? { byType[type]?.first }
        try check.expect(
            r.bundleIdentifierValueRange == one(2)?.valueRange && r.opaqueValueRange == one(4)?.valueRange
                && r.sha1HashRange == one(5)?.valueRange, "value ranges of attributes 2, 4, 5")
        try check.expect(r.bundleIdentifier == text(one(2), .utf8, raw) && !r.bundleIdentifier.isEmpty, "bundle id")
        try check.expect(r.appVersion == text(one(3), .utf8, raw) && !r.appVersion.isEmpty, "app version")
        try check.expect(r.environment.rawValue == (text(one(0), .utf8, raw) ?? ""), "environment")
        // Age rating: IA5String in real receipts, UTF8String accepted too (chosen by the tag).
        let ageKind: ASN1StringKind = one(10).map { !$0.valueRange.isEmpty && raw[$0.valueRange.lowerBound] & 0xDF == 0x0C } == true ? .utf8 : .ia5
        try check.expect(r.ageRating == text(one(10), ageKind, raw), "age rating")
        try check.expect(!r.opaqueValueRange.isEmpty && !r.sha1HashRange.isEmpty, "empty opaque value or hash accepted")
        try check.expect(r.originalAppVersion == text(one(19), .utf8, raw), "original app version")
        try check.expect(r.undocumented.string20 == text(one(20), .utf8, raw), "attribute 20")
        for (type, value) in [
            (1, r.appItemIdentifier), (15, r.downloadIdentifier), (16, r.versionExternalIdentifier),
            (9, r.undocumented.integer9), (11, r.undocumented.integer11), (13, r.undocumented.integer13),
            (14, r.undocumented.integer14), (25, r.undocumented.integer25),
        ] {
            try check.expect(value == integer(one(type), raw), "integer attribute \(type)")
        }
        for (type, date) in [(12, r.creationDate), (18, r.originalPurchaseDate), (21, r.expirationDate), (8, r.undocumented.date8)] {
            try checkDate(date, one(type), raw)
        }
    }

    /// Decoded attributes against the independent reading: the same, adjacent, filling the SET.
    static func compare(_ decoded: [ReceiptAttribute], _ raw: [RawAttribute], set: Range<Int>, what: String) throws(InvariantViolation) {
        try check.expect(decoded.count == raw.count, "\(what): \(decoded.count) attributes decoded, \(raw.count) present")
        var position = set.lowerBound
        for (a, b) in zip(decoded, raw) {
            try check.expect(
                a.offset == b.offset && a.type == b.type && a.version == b.version && a.valueRange == b.valueRange,
                "\(what) attribute at \(b.offset) decoded as type \(a.type) at \(a.offset), value \(a.valueRange); it is type \(b.type), value \(b.valueRange)"
            )
            try check.expect(b.offset == position, "\(what) attributes not adjacent at \(b.offset)")
            try check.expect(b.valueRange, within: b.offset ..< b.end, "\(what) value")
            position = b.end
        }
        try check.expect(position == set.upperBound, "\(what) attributes do not fill their SET")
    }

    static func checkPurchase(_ p: InAppPurchase, _ attributes: [ReceiptAttribute], _ raw: UnsafeRawBufferPointer) throws(InvariantViolation) {
        var byType: [Int: [ReceiptAttribute]] = [:]
        for attribute in attributes { byType[attribute.type, default: []].append(attribute) }
        for type in documentedInApp { try check.expect((byType[type]?.count ?? 0) <= 1, "in-app attribute \(type) accepted twice") }
        for type in requiredInApp { try check.expect(byType[type]?.count == 1, "required in-app attribute \(type) absent") }
        func one(_ type: Int) -> ReceiptAttribute? { byType[type]?.first }
        try check.expect(p.productIdentifier == text(one(1702), .utf8, raw) && !p.productIdentifier.isEmpty, "product id")
        try check.expect(p.isProduct(p.productIdentifier), "isProduct of its own product id")
        try check.expect(p.transactionIdentifier == text(one(1703), .utf8, raw) && !p.transactionIdentifier.isEmpty, "transaction id")
        try check.expect(p.originalTransactionIdentifier == text(one(1705), .utf8, raw), "original transaction id")
        try check.expect(p.promotionalOfferIdentifier == text(one(1721), .utf8, raw), "promotional offer id")
        try check.expect(p.quantity == integer(one(1701), raw), "quantity")
        try check.expect(p.productType == integer(one(1707), raw), "product type")
        try check.expect(p.webOrderLineItemIdentifier == integer(one(1711), raw), "web order line item id")
        for (type, flag) in [(1713, p.isTrialPeriod), (1719, p.isInIntroOfferPeriod)] {
            let value = integer(one(type), raw)
            try check.expect(flag == value.map { $0 == 1 } && (value == nil || value == 0 || value == 1), "flag \(type)")
        }
        for (type, date) in [
            (1704, p.purchaseDate), (1706, p.originalPurchaseDate), (1708, p.subscriptionExpirationDate),
            (1712, p.cancellationDate),
        ] {
            try checkDate(date, one(type), raw)
        }
        let active = p.cancellationDate == nil && p.subscriptionExpirationDate.map { p.purchaseDate < $0 } == true
        try check.expect(p.isActive(at: p.purchaseDate) == active, "isActive at the purchase date")
        try check.expect(p.isSubscription == (p.subscriptionExpirationDate != nil), "isSubscription")
    }

    /// The attribute's value as one BER element (the whole value), or nil.
    static func element(_ attribute: ReceiptAttribute?, _ raw: UnsafeRawBufferPointer) -> ASN1Element? {
        guard let attribute else { return nil }
        var reader = ASN1Reader(
            UnsafeRawBufferPointer(rebasing: raw[attribute.valueRange]), rules: .ber,
            baseOffset: attribute.valueRange.lowerBound)
        guard let element = try? reader.readElement(), reader.isAtEnd else { return nil }
        return element
    }

    /// A string attribute's text; nil when absent or empty.
    static func text(_ attribute: ReceiptAttribute?, _ kind: ASN1StringKind, _ raw: UnsafeRawBufferPointer) -> String? {
        guard let element = element(attribute, raw), element.tag.asPrimitive == kind.tag,
            let text = try? element.stringValue(kind), !text.isEmpty
        else { return nil }
        return text
    }

    static func integer(_ attribute: ReceiptAttribute?, _ raw: UnsafeRawBufferPointer) -> Int64? {
        guard let element = element(attribute, raw), element.tag == .integer else { return nil }
        return try? element.int64Value()
    }

    /// A decoded date against its attribute: absent when the attribute is absent or empty, and,
    /// for the plain `YYYY-MM-DDTHH:MM:SSZ` form, the instant its text names.
    static func checkDate(_ date: Date?, _ attribute: ReceiptAttribute?, _ raw: UnsafeRawBufferPointer) throws(InvariantViolation) {
        guard let element = element(attribute, raw), element.tag.asPrimitive == .ia5String,
            let text = try? element.octetStringValue().copyBytes(), !text.isEmpty
        else {
            try check.expect(date == nil, "date decoded from an absent or empty attribute")
            return
        }
        guard let date else { throw check.fail("date attribute at \(attribute!.offset) not decoded") }
        if text.count == 20, text[4] == 0x2D, text[7] == 0x2D, text[10] == 0x54, text[13] == 0x3A, text[16] == 0x3A, text[19] == 0x5A {
            func number(_ range: Range<Int>) -> Int? {
                var value = 0
                for i in range { guard text[i] >= 0x30, text[i] <= 0x39 else { return nil }; value = value * 10 + Int(text[i] - 0x30) }
                return value
            }
            guard let y = number(0 ..< 4), let mo = number(5 ..< 7), let d = number(8 ..< 10), let h = number(11 ..< 13),
                let mi = number(14 ..< 16), let s = number(17 ..< 19),
                let seconds = CivilTime.secondsSince1970(.init(year: y, month: mo, day: d, hour: h, minute: mi, second: s))
            else { throw check.fail("invalid date \(String(decoding: text, as: UTF8.self)) accepted") }
            try check.expect(
                date.millisecondsSince1970 == seconds * 1000,
                "date \(String(decoding: text, as: UTF8.self)) decoded as \(date.millisecondsSince1970) ms")
        }
    }

    // MARK: Queries, JSON, device

    static func checkQueries(_ r: AppReceipt) throws(InvariantViolation) {
        var products: [String] = []
        for p in r.inAppPurchases where products.count < 4 && !products.contains(p.productIdentifier) { products.append(p.productIdentifier) }
        for product in products {
            let found = r.purchases(of: product)
            try check.expect(found.count == r.inAppPurchases.filter { $0.productIdentifier == product }.count, "purchases(of:) count")
            try check.expect(zip(found, found.dropFirst()).allSatisfy { $0.purchaseDate >= $1.purchaseDate }, "purchases(of:) order")
            try check.expect(r.containsPurchase(of: product), "containsPurchase")
            if let active = r.activeAutoRenewableSubscription(product, at: r.creationDate) {
                try check.expect(active.isProduct(product) && active.isActive(at: r.creationDate), "active subscription is not active")
            }
        }
        try check.expect(!r.containsPurchase(of: "\u{0}not a product"), "containsPurchase of nothing")
        if let active = r.activeAutoRenewableSubscription(at: r.creationDate) {
            try check.expect(active.isActive(at: r.creationDate), "active subscription is not active")
        }
        let latest = r.latestExpirationDates()
        for (product, date) in latest {
            let expiries = r.inAppPurchases.filter { $0.productIdentifier == product && $0.cancellationDate == nil }
                .compactMap(\.subscriptionExpirationDate)
            try check.expect(expiries.max() == date, "latestExpirationDates for \(product)")
        }
        let cancelled = r.cancelledPurchases()
        try check.expect(cancelled.count == r.inAppPurchases.filter { $0.cancellationDate != nil }.count, "cancelledPurchases count")
    }

    static func checkJSON(_ r: AppReceipt) throws(InvariantViolation) {
        let text = ReceiptJSON.response(r)
        guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
            let receipt = object["receipt"] as? [String: Any], let inApp = receipt["in_app"] as? [Any]
        else { throw check.fail("JSON response does not parse: \(text.prefix(200))") }
        try check.expect((object["status"] as? NSNumber)?.intValue == 0, "JSON status")
        try check.expect(receipt["bundle_id"] as? String == r.bundleIdentifier, "JSON bundle_id")
        try check.expect(inApp.count == r.inAppPurchases.count, "JSON in_app count")
        for status in [ReceiptJSON.Status.malformed, .notAuthenticated] {
            let failure = try? JSONSerialization.jsonObject(with: Data(ReceiptJSON.failure(status).utf8)) as? [String: Any]
            try check.expect((failure?["status"] as? NSNumber)?.int64Value == status.rawValue, "JSON failure status")
        }
    }

    /// The synthetic receipts' device identifier (TestReceipt's default).
    static let device: [UInt8] = Array(0 ..< 16)

    static func checkDevice(_ r: AppReceipt) throws(InvariantViolation) {
        let expected = SHA1.hash(device + r.opaqueValue + r.payloadStorage[r.bundleIdentifierValueRange])
        try check.expect(r.matchesDevice(device) == expected.elementsEqual(r.sha1Hash), "matchesDevice")
    }

    // MARK: Validation

    static func checkValidation(_ r: AppReceipt, _ bytes: [UInt8]) throws(InvariantViolation) {
        var succeeded: Set<String> = []
        for (name, policy, family) in FuzzPolicies.all {
            switch Result(catching: { () throws(ReceiptValidationError) in try r.validate(policy: policy) }) {
            case .success(let verified):
                succeeded.insert(name)
                try checkValid(r, verified, policy: policy, family: family, name: name)
            case .failure(let error):
                _ = error.description
                guard case .untrusted(let reason) = error else { throw check.fail("\(name): validation without expectations failed: \(error)") }
                if case .malformedCertificate = reason { throw check.fail("\(name): validation found a malformed certificate decoding let through") }
            }
        }
        try check.expect(
            !succeeded.contains("appstore-test-root") || succeeded.contains("custom-test-root"),
            "valid under the App Store rules but not under the looser custom policy")
    }

    static func checkValid(
        _ r: AppReceipt, _ verified: VerifiedSignature, policy: TrustPolicy, family: KnownGood.Family,
        name: String
    ) throws(InvariantViolation) {
        try PKCS7Harness.checkGenuine(r.signedData, chain: verified.chain, family: family, check: check)
        try check.expect(r.signedData.signerInfos.indices.contains(verified.signerIndex), "\(name): signer index")
        if let last = verified.chain.last {
            try check.expect(policy.anchors.contains { $0.certificate.encoded == last.encoded }, "\(name): chain does not end at an anchor")
        }
        func outcome(_ bundle: String? = nil, _ version: String? = nil, _ device: [UInt8]? = nil) -> ReceiptValidationError? {
            do {
                try r.validate(policy: policy, bundleIdentifier: bundle, appVersion: version, deviceIdentifier: device)
                return nil
            } catch {
                return error
            }
        }
        try check.expect(outcome(r.bundleIdentifier, r.appVersion) == nil, "\(name): own bundle id and version rejected")
        try check.expect(
            outcome(r.bundleIdentifier + "x") == .bundleIdentifierMismatch(expected: r.bundleIdentifier + "x", found: r.bundleIdentifier),
            "\(name): another bundle id")
        try check.expect(
            outcome(nil, r.appVersion + "x") == .appVersionMismatch(expected: r.appVersion + "x", found: r.appVersion),
            "\(name): another app version")
        try check.expect((outcome(nil, nil, device) == nil) == r.matchesDevice(device), "\(name): device step")
    }
}
