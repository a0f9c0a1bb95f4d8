import AppReceipt
import CryptoPrimitives
import Foundation
import LegacyReceipt
import PKCS7
import X509Certificates
import ReceiptTestSupport

/// What genuinely signed material the harnesses know of, by SHA-256: signed contents (receipt
/// payloads) and `tbsCertificate`s. A signature that verifies over anything else is a forgery
/// the library let through.
///
/// The synthetic seeds are always known. Real receipts and certificates (the shared fixtures,
/// folders given to `Fuzz/run`) are registered from the folders named, separated by `:`, in the
/// environment variable `RECEIPT_FUZZ_KNOWN_GOOD`, or by `register(_:)`.
///
/// Why contents and not whole inputs: PKCS#7 leaves parts of the envelope unsigned (the
/// digestAlgorithms set, the order and number of embedded certificates, unsigned attributes,
/// BER length forms), so a mutated input may rightly still verify. What must never happen is
/// that content or a certificate nobody signed is accepted.
public enum KnownGood: Sendable {
    /// Which anchors a policy trusts, and so which signed material may verify under it.
    enum Family {
        /// The synthetic test chain's root.
        case synthetic
        /// Apple Root CA, the StoreKit testing certificate: only registered real material.
        case registered
        /// Any anchor.
        case any
    }

    private final class Store: @unchecked Sendable {
        let lock = NSLock()
        var syntheticContents: Set<[UInt8]> = []
        var registeredContents: Set<[UInt8]> = []
        /// Transaction receipts: SHA-256 of (version byte ‖ purchase-info).
        var syntheticLegacy: Set<[UInt8]> = []
        var registeredLegacy: Set<[UInt8]> = []
        var tbs: Set<[UInt8]> = []
    }

    private static let store: Store = {
        let store = Store()
        store.syntheticContents = Set(FuzzSeeds.signedContents.map { SHA256.hash($0).bytes })
        store.tbs = Set(FuzzSeeds.certificateTBS.map { SHA256.hash($0).bytes })
        store.syntheticLegacy = Set(LegacySeeds.signedContents.map { SHA256.hash($0).bytes })
        for anchor in [TrustAnchor.appleRootCA, TrustAnchor.storeKitTesting].compactMap({ $0 }) {
            store.tbs.insert(SHA256.hash(Array(anchor.certificate.tbsCertificate)).bytes)
        }
        let folders = ProcessInfo.processInfo.environment["RECEIPT_FUZZ_KNOWN_GOOD"]?.split(separator: ":") ?? []
        for folder in folders {
            let path = String(folder)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [path]
            for name in names {
                let file = names == [path] ? path : path + "/" + name
                if let data = FileManager.default.contents(atPath: file) { add([UInt8](data), to: store) }
            }
        }
        return store
    }()

    /// Registers a genuine receipt, SignedData, certificate (binary, base64 or PEM) or transaction
    /// receipt (text or base64): its signed content and its certificates become known. Anything
    /// else is ignored.
    public static func register(_ bytes: [UInt8]) {
        add(bytes, to: store)
    }

    private static func add(_ raw: [UInt8], to store: Store) {
        if let legacy = try? TransactionReceipt(raw) {
            store.lock.lock()
            store.registeredLegacy.insert(SHA256.hash(legacy.signedBytes).bytes)
            store.lock.unlock()
            return
        }
        let bytes = ReceiptInput.decode(raw)
        var contents: [[UInt8]] = []
        var tbs: [[UInt8]] = []
        if let signedData = try? SignedData(berEncoded: bytes) {
            contents.append(signedData.contentDigest(.sha256).bytes)
            for certificate in signedData.certificates {
                tbs.append(SHA256.hash(Array(certificate.tbsCertificate)).bytes)
            }
        } else if let certificate = try? Certificate(derEncoded: bytes) {
            tbs.append(SHA256.hash(Array(certificate.tbsCertificate)).bytes)
        }
        store.lock.lock()
        store.registeredContents.formUnion(contents)
        store.tbs.formUnion(tbs)
        store.lock.unlock()
    }

    /// Whether content with this SHA-256 was genuinely signed for a policy of `family`.
    static func isKnownContent(_ digest: [UInt8], _ family: Family) -> Bool {
        let store = self.store
        store.lock.lock()
        defer { store.lock.unlock() }
        switch family {
        case .synthetic: return store.syntheticContents.contains(digest)
        case .registered: return store.registeredContents.contains(digest)
        case .any: return store.syntheticContents.contains(digest) || store.registeredContents.contains(digest)
        }
    }

    /// Whether a transaction receipt's signed bytes (version byte ‖ purchase-info) with this
    /// SHA-256 were genuinely signed for a policy of `family`.
    static func isKnownLegacyContent(_ digest: [UInt8], _ family: Family) -> Bool {
        let store = self.store
        store.lock.lock()
        defer { store.lock.unlock() }
        switch family {
        case .synthetic: return store.syntheticLegacy.contains(digest)
        case .registered: return store.registeredLegacy.contains(digest)
        case .any: return store.syntheticLegacy.contains(digest) || store.registeredLegacy.contains(digest)
        }
    }

    /// Whether a `tbsCertificate` with this SHA-256 was genuinely signed.
    static func isKnownTBS(_ digest: [UInt8]) -> Bool {
        let store = self.store
        store.lock.lock()
        defer { store.lock.unlock() }
        return store.tbs.contains(digest)
    }
}

/// The trust policies the harnesses validate under, and the synthetic chain's keys.
enum FuzzPolicies {
    /// The synthetic chain's root as a trust anchor (self-signed once, on first use).
    static let testRoot: TrustAnchor = {
        guard let anchor = try? TrustAnchor(derEncoded: TestChain().rootCertificate) else {
            fatalError("the synthetic test root does not parse")
        }
        return anchor
    }()

    /// Every policy, with the family of material that may verify under it.
    static let all: [(name: String, policy: TrustPolicy, family: KnownGood.Family)] = [
        ("appstore", .appStore, .registered),
        ("xcode", .xcodeTesting, .registered),
        ("appstore-test-root", .appStore(anchors: [testRoot]), .synthetic),
        ("custom-test-root", .custom(anchors: [testRoot]), .synthetic),
    ]

    /// One policy trusting every anchor, claiming Xcode's critical extended key usage.
    static let permissive: TrustPolicy = {
        var policy = TrustPolicy.custom(anchors: [testRoot] + [TrustAnchor.appleRootCA, TrustAnchor.storeKitTesting].compactMap { $0 })
        policy.claimedCriticalExtensions = TrustPolicy.xcodeTesting.claimedCriticalExtensions
        return policy
    }()

    /// Public keys a fuzzed certificate's signature is checked against: the synthetic chain's,
    /// Apple Root CA's and the StoreKit certificate's.
    static let issuerKeys: [RSAPublicKey] = {
        let chain = TestChain()
        var keys = [chain.root.key, chain.intermediate.key].compactMap { ($0 as? TestSigningKey)?.publicKey }
        for anchor in [TrustAnchor.appleRootCA, TrustAnchor.storeKitTesting].compactMap({ $0 }) {
            if let key = try? anchor.certificate.rsaPublicKey() { keys.append(key) }
        }
        return keys
    }()
}
