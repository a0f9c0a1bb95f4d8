import AppStoreJWS
import CryptoPrimitives
import Foundation
import X509Certificates

/// What StoreKit 2 signed data is genuine, for the `jws` harness, by SHA-256: the signing inputs
/// somebody signed (`base64url(header) "." base64url(payload)`, RFC 7515 §5.2: everything a
/// signature covers, `x5c` included) and the `tbsCertificate`s of the chains that carry them.
/// A token that verifies with any other signing input, or through any other certificate, is a
/// forgery the library let through.
///
/// The synthetic seeds (`JWSSeeds`) are always known. Real tokens — Apple's, Xcode's — are
/// registered from the folders named in `RECEIPT_FUZZ_KNOWN_GOOD` (colon-separated; `Fuzz/run`
/// passes `../shared/fixtures/jws`) or by `register(_:)`, with the tokens nested in their
/// notifications. Whole tokens are not compared: an ECDSA signature (r, s) has a twin (r, n − s)
/// that verifies too (ES256 does not ask for low s), so a mutated signature part may rightly pass.
public enum JWSKnownGood: Sendable {
    private final class Store: @unchecked Sendable {
        let lock = NSLock()
        var signingInputs: [KnownGood.Family: Set<[UInt8]>] = [:]
        var tbs: [KnownGood.Family: Set<[UInt8]>] = [:]

        func insert(signingInput: [UInt8], _ family: KnownGood.Family) {
            lock.lock()
            defer { lock.unlock() }
            signingInputs[family, default: []].insert(SHA256.hash(signingInput).bytes)
        }

        func insert(_ certificates: [Certificate], _ family: KnownGood.Family) {
            lock.lock()
            defer { lock.unlock() }
            for certificate in certificates { tbs[family, default: []].insert(SHA256.hash(Array(certificate.tbsCertificate)).bytes) }
        }
    }

    private static let store: Store = {
        let store = Store()
        for seed in JWSSeeds.tokens { store.insert(signingInput: seed.signingInput, .synthetic) }
        store.insert(([JWSSeeds.xcodeLikeDER] + JWSSeeds.chainDER).compactMap { try? Certificate(derEncoded: $0) }, .synthetic)
        store.insert([TrustAnchor.appleRootCAG3, TrustAnchor.storeKitTestingInXcode].compactMap { $0?.certificate }, .registered)
        let folders = ProcessInfo.processInfo.environment["RECEIPT_FUZZ_KNOWN_GOOD"]?.split(separator: ":") ?? []
        for folder in folders.map(String.init) {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            for name in names {
                if let data = FileManager.default.contents(atPath: folder + "/" + name) { add([UInt8](data), to: store) }
            }
        }
        return store
    }()

    /// Registers a genuine token (text, whitespace around it ignored): its signing input, its
    /// certificates and, for a notification, its nested tokens. Anything else is ignored.
    public static func register(_ bytes: [UInt8]) {
        add(bytes, to: store)
    }

    private static func add(_ bytes: [UInt8], to store: Store) {
        guard let jws = try? CompactJWS(JWSHarness.trimmingWhitespace(bytes)) else { return }
        store.insert(signingInput: Array(jws.token[..<jws.signingInputEnd]), .registered)
        store.insert(jws.header.certificateChain ?? [], .registered)
        guard let notification = try? ResponseBodyV2DecodedPayload(payload: jws.payload) else { return }
        for nested in [
            notification.data?.signedTransactionInfo, notification.data?.signedRenewalInfo,
            notification.appData?.signedAppTransactionInfo,
        ].compactMap({ $0 }) {
            add(Array(nested.utf8), to: store)
        }
    }

    /// Whether this token's signing input was genuinely signed for a policy of `family`.
    static func isKnown(signingInput: ArraySlice<UInt8>, _ family: KnownGood.Family) -> Bool {
        contains(\.signingInputs, SHA256.hash(Array(signingInput)).bytes, family)
    }

    /// Whether this certificate's `tbsCertificate` was genuinely signed for a policy of `family`.
    static func isKnown(_ certificate: Certificate, _ family: KnownGood.Family) -> Bool {
        contains(\.tbs, SHA256.hash(Array(certificate.tbsCertificate)).bytes, family)
    }

    private static func contains(
        _ sets: KeyPath<Store, [KnownGood.Family: Set<[UInt8]>]>, _ digest: [UInt8],
        _ family: KnownGood.Family
    ) -> Bool {
        let store = self.store
        store.lock.lock()
        defer { store.lock.unlock() }
        let families: [KnownGood.Family] = family == .any ? [.synthetic, .registered] : [family]
        return families.contains { store[keyPath: sets][$0]?.contains(digest) ?? false }
    }
}
