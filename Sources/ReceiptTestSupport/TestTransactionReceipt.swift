import CryptoPrimitives
import DER
import Foundation
import X509Certificates

/// A synthetic chain shaped like the one behind iOS 6 transaction receipts: root ← intermediate
/// ← signer, with the markers Apple's certificates carry. Version 2: an RSA-1024 signer with
/// extension 1.2.840.113635.100.6.5.1 under an intermediate with 1.2.840.113635.100.6.2.2 (Apple
/// iTunes Store Certification Authority). Version 3: an RSA-2048 signer with policy
/// 1.2.840.113635.100.5.6.1 and extension 1.2.840.113635.100.6.11.1 under an intermediate with
/// 1.2.840.113635.100.6.2.1 (the WWDR CA). Receipts carry only the signer; verifiers get the root
/// as an anchor and the intermediate as an embedded certificate.
public struct TestLegacyChain: Sendable {
    /// The self-signed root (RSA-2048), the verifier's anchor.
    public var root: TestCertificate
    /// The intermediate (RSA-2048) the verifier embeds; receipts do not carry it.
    public var intermediate: TestCertificate
    /// The signer: RSA-1024 for version 2, RSA-2048 for version 3.
    public var leaf: TestCertificate

    /// Marker extension of version 2 signers.
    public static let version2SignerExtension = ASN1ObjectIdentifier("1.2.840.113635.100.6.5.1")
    /// Marker extension of Apple iTunes Store Certification Authority.
    public static let iTunesStoreIntermediateExtension = ASN1ObjectIdentifier("1.2.840.113635.100.6.2.2")

    /// The chain for signature `version` 2 or 3 (anything else is treated as 3).
    public init(version: Int) {
        root = TestCertificate(
            commonName: "Receipt Toolkit Legacy Test Root CA", key: TestKeys.rsa2048[3], serialNumber: [0x02],
            extensions: [.basicConstraints(ca: true), .keyUsage([.keyCertSign, .cRLSign])])
        if version == 2 {
            intermediate = TestCertificate(
                commonName: "Receipt Toolkit Test iTunes Store CA", key: TestKeys.rsa2048[4],
                serialNumber: [0x1A],
                extensions: [
                    .basicConstraints(ca: true), .keyUsage([.keyCertSign, .cRLSign]), .marker(Self.iTunesStoreIntermediateExtension),
                ])
            leaf = TestCertificate(
                commonName: "Receipt Toolkit Test PurchaseReceiptCertificate", key: TestKeys.rsa1024[0],
                serialNumber: [0x65, 0x14], signatureHash: .sha1,
                extensions: [
                    .basicConstraints(ca: false), .keyUsage([.digitalSignature]), .marker(Self.version2SignerExtension),
                ])
        } else {
            intermediate = TestCertificate(
                commonName: "Receipt Toolkit Test WWDR CA", key: TestKeys.rsa2048[4],
                serialNumber: [0x10, 0x02],
                extensions: [
                    .basicConstraints(ca: true), .keyUsage([.keyCertSign, .cRLSign]), .marker(OIDs.appleWWDRIntermediateExtension),
                ])
            leaf = TestCertificate(
                commonName: "Receipt Toolkit Test Receipt Signing", key: TestKeys.rsa2048[5],
                serialNumber: [0x15, 0xE8],
                extensions: [
                    .basicConstraints(ca: false), .keyUsage([.digitalSignature]),
                    .policies([OIDs.appleReceiptSigningPolicy]), .marker(OIDs.appleReceiptSigningExtension),
                ])
        }
    }

    /// The root's DER, for a trust anchor.
    public var rootCertificate: [UInt8] { root.selfSigned() }
    /// The intermediate's DER, signed by the root.
    public var intermediateCertificate: [UInt8] { intermediate.signed(by: root) }
    /// The signer's DER, signed by the intermediate.
    public var leafCertificate: [UInt8] { leaf.signed(by: intermediate) }
}

/// A synthetic transaction receipt: the purchase-info dictionary, signed by a `TestLegacyChain`'s
/// signer as Apple signed them (RSA PKCS#1 v1.5, SHA-1 over version byte ‖ purchase-info), wrapped
/// in the outer dictionary. Every layer can be bent for one refusal: the version byte written,
/// the hash, the certificate length, bytes after the certificate, the texts themselves.
public struct TestTransactionReceipt: Sendable {
    /// The chain whose signer signs the receipt.
    public var chain: TestLegacyChain
    /// The version the signature is made for (2 or 3).
    public var version: UInt8
    /// The purchase-info entries, in order.
    public var purchaseInfo: [(String, String)]
    /// The outer entries besides `signature` and `purchase-info` (which come first).
    public var outer: [(String, String)] = [("environment", "Sandbox"), ("pod", "100"), ("signing-status", "0")]
    /// The hash signed (SHA-1 as Apple's).
    public var hash: HashAlgorithm = .sha1
    /// A version byte written in place of `version` after signing.
    public var writtenVersion: UInt8? = nil
    /// Added to the certificate length field.
    public var certificateLengthDelta: Int = 0
    /// Bytes after the certificate.
    public var trailingBytes: [UInt8] = []
    /// When set, the purchase-info text carried in place of the signed one.
    public var carriedPurchaseInfo: [UInt8]? = nil
    /// When set, the signature bytes carried in place of the real signature.
    public var signatureOverride: [UInt8]? = nil

    /// A receipt for `version` 2 or 3 with a consumable purchase at `purchaseMilliseconds`
    /// (default 2020-09-13T12:26:40Z), or an auto-renewable subscription's when `expiresMilliseconds` is given.
    public init(
        version: UInt8, chain: TestLegacyChain? = nil, purchaseMilliseconds: Int64 = 1_600_000_000_000,
        expiresMilliseconds: Int64? = nil, transactionIdentifier: String = "1000000046178817"
    ) {
        self.version = version
        self.chain = chain ?? TestLegacyChain(version: Int(version))
        let purchase = String(purchaseMilliseconds)
        var info: [(String, String)] = [
            ("original-purchase-date-pst", "2020-09-13 05:26:40 America/Los_Angeles"),
            ("unique-identifier", "0000b0123456789abcdef0123456789abcdef012"),
            ("original-transaction-id", "1000000046178817"),
            ("bvrs", "1.0"),
            ("transaction-id", transactionIdentifier),
            ("quantity", "1"),
            ("original-purchase-date-ms", "1600000000000"),
            ("unique-vendor-identifier", "5B9E8F2E-1C9A-4D2B-8E1F-3A4B5C6D7E8F"),
            ("product-id", expiresMilliseconds == nil ? "com.example.coins" : "com.example.monthly"),
            ("item-id", "521129812"),
            ("bid", "com.example.app"),
            ("purchase-date-ms", purchase),
            ("purchase-date", "2020-09-13 12:26:40 Etc/GMT"),
            ("purchase-date-pst", "2020-09-13 05:26:40 America/Los_Angeles"),
            ("original-purchase-date", "2020-09-13 12:26:40 Etc/GMT"),
        ]
        if let expiresMilliseconds {
            info += [
                ("expires-date", String(expiresMilliseconds)), ("expires-date-formatted", "2020-10-13 12:26:40 Etc/GMT"),
                ("expires-date-formatted-pst", "2020-10-13 05:26:40 America/Los_Angeles"),
                ("web-order-line-item-id", "1000000000000001"), ("is-trial-period", "false"),
                ("is-in-intro-offer-period", "false"),
            ]
        }
        purchaseInfo = info
    }

    /// A dictionary's text as iOS wrote it: `{`, one tab-indented `"key" = "value";` per line, `}`.
    public static func dictionaryText(_ entries: [(String, String)]) -> [UInt8] {
        func quoted(_ text: String) -> String {
            "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        }
        return Array(("{\n" + entries.map { "\t\(quoted($0.0)) = \(quoted($0.1));\n" }.joined() + "}").utf8)
    }

    /// The signed purchase-info text.
    public var purchaseInfoText: [UInt8] { Self.dictionaryText(purchaseInfo) }

    /// The decoded `signature` value.
    public var signatureBlob: [UInt8] {
        let message = [version] + purchaseInfoText
        let signature = signatureOverride ?? chain.leaf.key.signatureValue(digest: hash.hash(message), hash: hash)
        let certificate = chain.leafCertificate
        let length = UInt32(truncatingIfNeeded: certificate.count + certificateLengthDelta)
        return [writtenVersion ?? version] + signature + withUnsafeBytes(of: length.bigEndian, Array.init) + certificate + trailingBytes
    }

    /// The outer dictionary's text (what `transactionReceipt` held).
    public var text: [UInt8] {
        let info = carriedPurchaseInfo ?? purchaseInfoText
        return Self.dictionaryText(
            [
                ("signature", Data(signatureBlob).base64EncodedString()),
                ("purchase-info", Data(info).base64EncodedString()),
            ] + outer)
    }

    /// The text's base64, as clients sent it in `receipt-data`.
    public var base64: [UInt8] { Array(Data(text).base64EncodedString().utf8) }
}
