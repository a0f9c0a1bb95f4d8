// The receipt and envelope resource bounds of README's table, each at and just past its value.
// (Nesting depth is tested in Tests/DERTests/LimitsTests.swift; the number of certificates,
// SignerInfos, intermediates and signature checks in Tests/PKCS7Tests; certificate, Name and
// extension bounds in Tests/X509Tests.)
//
// Decoding checks no signature, so the inputs are unsigned envelopes built with DERWriter: cheap
// even at 16 MiB or 100,001 purchases. Decoding is linear (DESIGN §8), but unit tests measure no
// time; the benchmarks measure it (Benchmarks/, decode/synthetic-N).

import AppReceipt
import DER
import Foundation
import PKCS7
import X509Certificates
import ReceiptTestSupport
import Testing

/// Unsigned receipts of any shape.
enum Unsigned {
    /// A ContentInfo → SignedData around `payload` (primitive eContent), one SignerInfo whose
    /// signature is zeros, `digestAlgorithms` copies of SHA-256 in digestAlgorithms, and
    /// `certificates` (none by default).
    static func receipt(payload: [UInt8], digestAlgorithms: Int = 1, certificates: [[UInt8]] = []) -> [UInt8] {
        var algorithm = DERWriter()
        algorithm.appendSequence {
            $0.appendObjectIdentifier(OIDs.sha256); $0.appendNull()
        }
        var writer = DERWriter()
        writer.appendSequence { contentInfo in
            contentInfo.appendObjectIdentifier(OIDs.signedData)
            contentInfo.appendConstructed(.contextSpecific(0)) { explicit in
                explicit.appendSequence { signedData in
                    signedData.appendInteger(1)
                    signedData.appendSetOf { set in for _ in 0 ..< digestAlgorithms { set.appendEncoded(algorithm.bytes) } }
                    signedData.appendSequence { encapsulated in
                        encapsulated.appendObjectIdentifier(OIDs.data)
                        encapsulated.appendConstructed(.contextSpecific(0)) { $0.appendOctetString(payload) }
                    }
                    if !certificates.isEmpty {
                        signedData.appendConstructed(.contextSpecific(0)) { set in for certificate in certificates { set.appendEncoded(certificate) }
                        }
                    }
                    signedData.appendSetOf { set in
                        set.appendSequence { signer in
                            signer.appendInteger(1)
                            signer.appendSequence { sid in
                                sid.appendSequence { _ in }
                                sid.appendInteger(1)
                            }
                            signer.appendEncoded(algorithm.bytes)
                            signer.appendSequence {
                                $0.appendObjectIdentifier(OIDs.rsaEncryption); $0.appendNull()
                            }
                            signer.appendOctetString([UInt8](repeating: 0, count: 256))
                        }
                    }
                }
            }
        }
        return writer.bytes
    }

    /// One `ReceiptAttribute` (version 1).
    static func attribute(_ type: Int, _ value: [UInt8]) -> [UInt8] {
        var writer = DERWriter()
        writer.appendSequence { a in
            a.appendInteger(Int64(type))
            a.appendInteger(1)
            a.appendOctetString(value)
        }
        return writer.bytes
    }

    /// A SET around already encoded attributes, in the order given (BER; receipts are read so).
    static func set(_ encodedAttributes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x31]
        DERWriter.appendLength(encodedAttributes.count, to: &out)
        return out + encodedAttributes
    }

    /// The app-level attributes every receipt needs (TestReceipt's), encoded one after another.
    static let required: [UInt8] = {
        let base = TestReceipt()
        var bytes: [UInt8] = []
        bytes += attribute(2, TestReceipt.utf8(base.bundleIdentifier))
        bytes += attribute(3, TestReceipt.utf8(base.appVersion))
        bytes += attribute(4, base.opaqueValue)
        bytes += attribute(5, [UInt8](repeating: 0xAB, count: 20))
        bytes += attribute(12, TestReceipt.ia5(base.creationDate))
        return bytes
    }()

    /// Where the payload's content (the SET's first attribute) starts in an envelope built by
    /// `receipt(payload:)`.
    static func firstAttributeOffset(in receipt: [UInt8]) throws -> Int {
        let signedData = try SignedData(berEncoded: receipt)
        let payload = try #require(signedData.contentRange)
        return try ASN1Reader.parse(Array(receipt[payload]), rules: .ber) { reader throws(ASN1Error) in
            try reader.read(.set).contentOffset
        } + payload.lowerBound
    }
}

/// Decoding's error, or nil.
func decodeError(_ bytes: [UInt8]) -> ReceiptError? {
    do {
        _ = try AppReceipt(bytes)
        return nil
    } catch {
        return error
    }
}

@Suite("Receipt resource bounds, at and past each limit")
struct BoundsTests {
    // MARK: ReceiptLimits.maxInputSize

    /// A valid receipt of exactly `size` bytes: the required attributes plus one unknown
    /// attribute whose value pads the input.
    static func receipt(ofSize size: Int) -> [UInt8] {
        DERParts.sized(size) { padding in
            Unsigned.receipt(payload: Unsigned.set(Unsigned.required + Unsigned.attribute(1000, [UInt8](repeating: 0x5A, count: padding))))
        }
    }

    @Test func inputSizeAtTheLimitDecodes() throws {
        let limit = ReceiptLimits.maxInputSize
        let bytes = Self.receipt(ofSize: limit)
        #expect(bytes.count == limit)
        let receipt = try AppReceipt(bytes)
        #expect(receipt.bundleIdentifier == TestReceipt().bundleIdentifier)
        #expect(receipt.attributes.last?.valueRange.count ?? 0 > limit - 1000)
    }

    @Test func inputSizePastTheLimitIsRefused() {
        let limit = ReceiptLimits.maxInputSize
        let bytes = Self.receipt(ofSize: limit + 1)
        #expect(bytes.count == limit + 1)
        #expect(decodeError(bytes) == .inputTooLarge(count: limit + 1))
        // Base64 text of a too-large receipt is refused the same way once decoded.
        #expect((try? AppReceipt(binaryOrBase64: bytes)) == nil)
    }

    // MARK: PKCS7Limits.maxInputSize, ReceiptInput.maxTextSize

    /// SignedData's own bound (the receipt's is the same value, checked first by AppReceipt).
    @Test func signedDataInputAtAndPastTheLimit() throws {
        let limit = PKCS7Limits.maxInputSize
        #expect(ReceiptLimits.maxInputSize == limit)
        #expect(try SignedData(berEncoded: Self.receipt(ofSize: limit)).contentCount > limit - 1000)
        #expect(throws: PKCS7Error(.inputTooLarge(count: limit + 1), at: 0)) { try SignedData(berEncoded: Self.receipt(ofSize: limit + 1)) }
    }

    /// Base64 text of a receipt at the limit decodes; text longer than any accepted receipt's is
    /// not decoded at all, and is refused by its size.
    @Test func base64TextAtAndPastTheLimit() throws {
        let receipt = Self.receipt(ofSize: ReceiptLimits.maxInputSize)
        let text = Array(Data(receipt).base64EncodedString(options: .lineLength64Characters).utf8)
        #expect(text.count < ReceiptInput.maxTextSize)
        #expect(try AppReceipt(binaryOrBase64: text).payloadRange.count > ReceiptLimits.maxInputSize - 1000)
        let tooLong = [UInt8](repeating: 0x41, count: ReceiptInput.maxTextSize + 1)
        #expect(ReceiptInput.decode(tooLong) == tooLong)
        #expect(throws: ReceiptError.inputTooLarge(count: tooLong.count)) { try AppReceipt(binaryOrBase64: tooLong) }
    }

    // MARK: PKCS7Limits.maxDigestAlgorithms

    @Test func digestAlgorithmsAtAndPastTheLimit() throws {
        let limit = PKCS7Limits.maxDigestAlgorithms
        let payload = Unsigned.set(Unsigned.required)
        #expect(try SignedData(berEncoded: Unsigned.receipt(payload: payload, digestAlgorithms: limit)).digestAlgorithms.count == limit)
        let past = Unsigned.receipt(payload: payload, digestAlgorithms: limit + 1)
        let error = #expect(throws: PKCS7Error.self) { try SignedData(berEncoded: past) }
        #expect(error?.kind == .tooManyElements)
        // At the algorithm past the limit (each takes 15 octets; the first is the first in the input).
        let sha256: [UInt8] = [0x30, 0x0D, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01, 0x05, 0x00]
        let first = try #require((0 ..< past.count - 15).first { past[$0 ..< $0 + 15].elementsEqual(sha256) })
        #expect(error?.offset == first + 15 * limit)
    }

    // MARK: X509Limits.maxCertificateSize inside an envelope

    /// A certificate past the size bound is refused by its header, whatever follows, and named by
    /// its index. (At and past each X.509 bound on its own: Tests/X509Tests.)
    @Test func oversizedCertificateInAnEnvelope() throws {
        let limit = X509Limits.maxCertificateSize
        let huge: [UInt8] = [0x30, 0x82, UInt8((limit - 3) >> 8), UInt8((limit - 3) & 0xFF)] + [UInt8](repeating: 0x05, count: limit - 3)
        #expect(huge.count == limit + 1)
        let bytes = Unsigned.receipt(payload: Unsigned.set(Unsigned.required), certificates: [TestChain().rootCertificate, huge])
        let error = #expect(throws: PKCS7Error.self) { try SignedData(berEncoded: bytes) }
        #expect(error?.kind == .embeddedCertificate(index: 1, .certificateTooLarge(limit + 1)))
        #expect(error.map { Array(bytes[$0.offset...].prefix(4)) } == Array(huge.prefix(4)))
        #expect(decodeError(bytes) == .envelope(error!))
    }

    // MARK: ReceiptLimits.maxAttributesPerSet, app level

    /// The required attributes, `purchases` purchases and unknown attributes up to `count`
    /// attributes besides the purchases; returns the receipt and the offset of the last
    /// attribute.
    static func receipt(appAttributes count: Int, purchases: Int = 0) throws -> (bytes: [UInt8], lastOffset: Int) {
        var attributes = Unsigned.required
        var offsets: [Int] = []
        var position = attributes.count
        for i in 0 ..< purchases {
            let purchase = Unsigned.attribute(17, Unsigned.set(Self.minimalPurchase(i)))
            attributes += purchase
            position += purchase.count
        }
        for i in 0 ..< count - 5 {
            let extra = Unsigned.attribute(2000 + i, [])
            offsets.append(position)
            attributes += extra
            position += extra.count
        }
        let bytes = Unsigned.receipt(payload: Unsigned.set(attributes))
        return (bytes, try Unsigned.firstAttributeOffset(in: bytes) + offsets.last!)
    }

    @Test func appLevelAttributesAtTheLimitDecode() throws {
        let limit = ReceiptLimits.maxAttributesPerSet
        let receipt = try AppReceipt(try Self.receipt(appAttributes: limit).bytes)
        #expect(receipt.attributes.count == limit)
        // Purchases do not count against the app-level bound.
        let withPurchases = try AppReceipt(try Self.receipt(appAttributes: limit, purchases: 3).bytes)
        #expect(withPurchases.attributes.count == limit + 3)
        #expect(withPurchases.inAppPurchases.count == 3)
    }

    @Test func appLevelAttributesPastTheLimitAreRefused() throws {
        let limit = ReceiptLimits.maxAttributesPerSet
        let (bytes, last) = try Self.receipt(appAttributes: limit + 1)
        #expect(decodeError(bytes) == .tooManyElements(offset: last))
        let (mixed, mixedLast) = try Self.receipt(appAttributes: limit + 1, purchases: 2)
        #expect(decodeError(mixed) == .tooManyElements(offset: mixedLast))
    }

    // MARK: ReceiptLimits.maxAttributesPerSet, one in-app purchase

    /// 1702, 1703, 1704: the attributes a purchase needs.
    static func minimalPurchase(_ index: Int) -> [UInt8] {
        Unsigned.attribute(1702, TestReceipt.utf8("com.example.bounds"))
            + Unsigned.attribute(1703, TestReceipt.utf8(String(100_000_000 + index)))
            + Unsigned.attribute(1704, TestReceipt.ia5("2024-01-01T00:00:00Z"))
    }

    /// A receipt with one purchase of `count` attributes; returns the receipt and the offset of
    /// the purchase's last attribute.
    static func receipt(inAppAttributes count: Int) throws -> (bytes: [UInt8], lastOffset: Int) {
        var inner = Self.minimalPurchase(0)
        var lastInner = 0
        for i in 0 ..< count - 3 {
            lastInner = inner.count
            inner += Unsigned.attribute(3000 + i, [])
        }
        let purchase = Unsigned.attribute(17, Unsigned.set(inner))
        let bytes = Unsigned.receipt(payload: Unsigned.set(Unsigned.required + purchase))
        // Attribute 17 follows the required ones; its value is the SET: header octets of the
        // SEQUENCE, type, version and OCTET STRING, then the SET's own header.
        let purchaseOffset = try Unsigned.firstAttributeOffset(in: bytes) + Unsigned.required.count
        let valueStart = try ASN1Reader.parse(purchase, rules: .der) { reader throws(ASN1Error) -> Int in
            var fields = try reader.readSequence()
            _ = try fields.readInt64()
            _ = try fields.readInt64()
            let value = try fields.read(.octetString)
            var set = try value.encapsulated(rules: .der)
            return try set.read(.set).contentOffset
        }
        return (bytes, purchaseOffset + valueStart + lastInner)
    }

    @Test func inAppAttributesAtTheLimitDecode() throws {
        let limit = ReceiptLimits.maxAttributesPerSet
        let receipt = try AppReceipt(try Self.receipt(inAppAttributes: limit).bytes)
        let purchase = try #require(receipt.inAppPurchases.first)
        #expect(purchase.attributeIndexes.count == limit)
        #expect(purchase.transactionIdentifier == "100000000")
    }

    @Test func inAppAttributesPastTheLimitAreRefused() throws {
        let limit = ReceiptLimits.maxAttributesPerSet
        let (bytes, last) = try Self.receipt(inAppAttributes: limit + 1)
        #expect(decodeError(bytes) == .tooManyElements(offset: last))
    }

    // MARK: ReceiptLimits.maxInAppPurchases

    /// The type-17 attributes of `count` minimal purchases, each of the same length (the
    /// transaction ids have nine digits), built from one template.
    static func purchases(_ count: Int) -> (bytes: [UInt8], attributeLength: Int) {
        let template = Unsigned.attribute(17, Unsigned.set(Self.minimalPurchase(0)))
        let digits = Array("100000000".utf8)
        guard let at = template.indices.first(where: { template[$0 ..< min(template.count, $0 + digits.count)].elementsEqual(digits) }) else {
            preconditionFailure("transaction id not found in the template")
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(template.count * count)
        var copy = template
        for i in 0 ..< count {
            var n = 100_000_000 + i
            for k in (0 ..< digits.count).reversed() {
                copy[at + k] = UInt8(0x30 + n % 10)
                n /= 10
            }
            bytes += copy
        }
        return (bytes, template.count)
    }

    @Test func inAppPurchasesAtAndPastTheLimit() throws {
        let limit = ReceiptLimits.maxInAppPurchases
        let (all, length) = Self.purchases(limit + 1)

        let atLimit = Unsigned.receipt(payload: Unsigned.set(Unsigned.required + all[..<(limit * length)]))
        #expect(atLimit.count < ReceiptLimits.maxInputSize)
        let receipt = try AppReceipt(atLimit)
        #expect(receipt.inAppPurchases.count == limit)
        #expect(receipt.inAppPurchases.last?.transactionIdentifier == String(100_000_000 + limit - 1))
        #expect(receipt.inAppAttributes.count == 3 * limit)

        let past = Unsigned.receipt(payload: Unsigned.set(Unsigned.required + all))
        let lastOffset = try Unsigned.firstAttributeOffset(in: past) + Unsigned.required.count + limit * length
        #expect(decodeError(past) == .tooManyElements(offset: lastOffset))
    }
}
