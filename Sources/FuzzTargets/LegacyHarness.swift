import CryptoPrimitives
import Foundation
import LegacyReceipt
import ReceiptTestSupport
import X509Certificates

/// `legacy`: iOS 6 transaction receipts on any input: the dictionary parser, the signature blob
/// reader, and the whole receipt (decoding, verification under Apple's and the synthetic roots).
///
/// - The dictionary parser either fails with an offset inside the input (or at its end), or
///   returns at most `maxKeys` distinct keys whose offsets increase within the input, and the
///   text it writes back parses to the same entries.
/// - The blob reader either fails, or returns version 2 or 3 with a signature of 128 or 256 bytes
///   and a certificate that is exactly the rest of the input after the 4-byte length.
/// - A receipt that decodes has a signature blob and purchase-info that the parts' readers accept
///   on their own; one that verifies signed exactly (version byte ‖ purchase-info) that a seed or
///   a registered real receipt signed: under the synthetic roots the synthetic seeds, under Apple
///   Root CA only registered real receipts (`KnownGood`, `RECEIPT_FUZZ_KNOWN_GOOD`).
enum LegacyHarness {
    static let check = Checker(harness: "legacy")

    static func check(_ input: UnsafeRawBufferPointer) throws(InvariantViolation) {
        let bytes = Array(input)
        try checkDictionary(bytes)
        try checkBlob(bytes)
        try checkReceipt(bytes)
    }

    static func checkDictionary(_ bytes: [UInt8]) throws(InvariantViolation) {
        let dictionary: StringDictionary
        do {
            dictionary = try StringDictionary(parsing: bytes)
        } catch {
            _ = error.description
            if case .tooLarge = error {
                try check.expect(bytes.count > StringDictionary.maxTextSize, "tooLarge for \(bytes.count) bytes")
            } else {
                try check.expect(offset: error.offset, within: 0 ..< bytes.count, "StringDictionary(parsing:)")
            }
            return
        }
        try check.expect(dictionary.entries.count <= StringDictionary.maxKeys, "more than maxKeys entries")
        try check.expect(Set(dictionary.keys).count == dictionary.keys.count, "duplicate keys accepted")
        var previous = -1
        for entry in dictionary.entries {
            try check.expect(entry.offset > previous && entry.offset < bytes.count, "entry offset \(entry.offset) out of order or bounds")
            try check.expect(bytes[entry.offset] == UInt8(ascii: "\""), "entry offset \(entry.offset) is not a quote")
            previous = entry.offset
        }
        let rewritten: StringDictionary
        do {
            rewritten = try StringDictionary(parsing: Array(dictionary.text.utf8))
        } catch {
            throw check.fail("the dictionary's own text does not parse: \(error)")
        }
        try check.expect(
            rewritten.keys == dictionary.keys && rewritten.entries.map(\.value) == dictionary.entries.map(\.value),
            "the dictionary's own text parses to other entries")
    }

    static func checkBlob(_ bytes: [UInt8]) throws(InvariantViolation) {
        let blob: LegacySignature
        do {
            blob = try LegacySignature(bytes)
        } catch {
            _ = error.description
            if case .trailingBytes(let count, let offset) = error {
                try check.expect(count > 0 && offset + count == bytes.count, "trailingBytes \(count) at \(offset) of \(bytes.count)")
            }
            return
        }
        try check.expect(blob.signature.count == blob.version.signatureByteCount, "signature length \(blob.signature.count)")
        try check.expect(bytes[0] == blob.version.rawValue, "version byte")
        let start = 1 + blob.signature.count + 4
        try check.expect(Array(blob.certificate.encoded) == Array(bytes[start...]), "certificate is not the rest of the blob")
        let declared = bytes[start - 4 ..< start].reduce(0) { $0 << 8 | Int($1) }
        try check.expect(declared == bytes.count - start, "certificate length field \(declared)")
    }

    static func checkReceipt(_ bytes: [UInt8]) throws(InvariantViolation) {
        let receipt: TransactionReceipt
        do {
            receipt = try TransactionReceipt(bytes)
        } catch {
            _ = error.description
            return
        }
        try check.expect((try? StringDictionary(parsing: receipt.purchaseInfoBytes)) != nil, "purchase-info does not parse alone")
        try check.expect(receipt.purchaseInfo[("purchase-date-ms")] == receipt.purchaseDate.millisecondsText, "purchase date")
        _ = TransactionReceiptJSON.response(receipt)
        let digest = SHA256.hash(receipt.signedBytes).bytes
        for (name, policy, family) in LegacyFuzzPolicies.all {
            guard (try? receipt.verify(policy: policy)) != nil else { continue }
            try check.expect(KnownGood.isKnownLegacyContent(digest, family), "forgery: verified under \(name) over content nobody signed")
        }
    }
}

/// The policies the `legacy` harness verifies under.
enum LegacyFuzzPolicies {
    static let all: [(name: String, policy: LegacyTrustPolicy, family: KnownGood.Family)] = {
        var policies: [(String, LegacyTrustPolicy, KnownGood.Family)] = [("appstore", .appStore, .registered)]
        for version in [2, 3] {
            let chain = TestLegacyChain(version: version)
            guard let root = try? TrustAnchor(derEncoded: chain.rootCertificate),
                let intermediate = try? Certificate(derEncoded: chain.intermediateCertificate)
            else {
                fatalError("the synthetic legacy chain does not parse")
            }
            policies.append(("appstore-test-root-v\(version)", .appStore(anchors: [root], intermediates: [intermediate]), .synthetic))
        }
        return policies
    }()
}
