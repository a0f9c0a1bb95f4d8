import AppReceipt
import CryptoPrimitives
import DER
import PKCS7
import X509Certificates

/// Our implementation, through the root package's public API only.
///
/// - walk: `ASN1Reader.walk` over the whole file (BER rules) inside `withUnsafeBytes`: must not allocate.
/// - decode: `AppReceipt(bytes)`: PKCS#7 envelope + payload into typed values.
/// - verify (cold): `AppReceipt(bytes).validate(policy:at: .receiptCreation)` with no link store:
///   decode, signature over the content, chain to the anchor, Apple rules, at the creation date.
/// - verify (warm): the same with a shared `VerifiedLinkCache` warmed once, so the certificate
///   links are not re-verified (the signer's signature over the content still is).
/// - SHA-1/SHA-256: one-shot `SHA1.hash` / `SHA256.hash` over borrowed bytes.
/// - RSA-2048: `RSAPublicKey.isValidSignature` (PKCS#1 v1.5, SHA-256 digest given), key parsed once.
public enum Ours {
    /// Number of elements (and end-of-contents markers) in the file; allocates nothing.
    public static func walk(_ bytes: [UInt8]) throws -> Int {
        try bytes.withUnsafeBytes { (raw: UnsafeRawBufferPointer) throws -> Int in
            var reader = ASN1Reader(raw, rules: .ber)
            var count = 0
            try reader.walk { _ in count += 1 }
            return count
        }
    }

    public static func decode(_ bytes: [UInt8]) throws -> Int {
        try AppReceipt(bytes).inAppPurchases.count
    }

    public static func policy(for sample: ReceiptSample) -> TrustPolicy {
        switch sample.anchor {
        case .appleRoot: return .appStore
        case .storeKit: return .xcodeTesting
        case .testRoot: return .appStore(anchors: [try! TrustAnchor(derEncoded: sample.anchorDER)])
        }
    }

    /// Decode + full validation at the receipt's creation date; `linkStore` nil = cold.
    public static func verify(_ bytes: [UInt8], policy: TrustPolicy, linkStore: VerifiedLinkCache?) throws -> Int {
        let receipt = try AppReceipt(bytes)
        try receipt.validate(policy: policy, at: .receiptCreation, linkStore: linkStore)
        return receipt.inAppPurchases.count
    }

    /// A cache holding the sample's verified links (one validation done; if it fails, the
    /// timed runs fail the same way and are reported).
    public static func warmedCache(_ sample: ReceiptSample) -> VerifiedLinkCache {
        let cache = VerifiedLinkCache()
        _ = try? verify(sample.bytes, policy: policy(for: sample), linkStore: cache)
        return cache
    }

    /// The first 8 digest bytes, big-endian (enough to check peers agree).
    public static func sha256(_ bytes: UnsafeRawBufferPointer) -> Int { prefix(SHA256.hash(bytes)) }
    public static func sha1(_ bytes: UnsafeRawBufferPointer) -> Int { prefix(SHA1.hash(bytes)) }

    static func prefix(_ digest: Digest) -> Int {
        digest.prefix(8).reduce(0) { $0 << 8 | Int($1) }
    }

    public static func rsaVerify(_ key: RSAPublicKey, signature: [UInt8], digest: Digest) -> Int {
        key.isValidSignature(signature, digest: digest, algorithm: .sha256) ? 1 : 0
    }

    /// Our decode in the peers' shape, for the (untimed) cross-check.
    public static func values(_ bytes: [UInt8]) throws -> PeerReceipt {
        PeerReceipt(try AppReceipt(bytes))
    }
}
