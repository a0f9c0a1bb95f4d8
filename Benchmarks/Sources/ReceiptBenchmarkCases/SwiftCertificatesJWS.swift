import Crypto
import Foundation
import SwiftASN1
@_spi(FixedExpiryValidationTime) import X509

/// swift-crypto + swift-certificates verifying an App Store JWS as Apple's
/// app-store-server-library-swift does (see `JWSCases`): the header and payload decoded with
/// `JSONDecoder`, leaf and intermediate parsed, a `Verifier` over a store holding Apple Root CA -
/// G3 with `RFC5280Policy` at the `signedDate` and a policy for Apple's two OIDs, then the leaf's
/// `P256.Signing.PublicKey` over the signing input (the library hands this last step to JWTKit).
struct SwiftCertificatesJWS: Sendable {
    let roots: CertificateStore

    init(rootDER: [UInt8]) throws {
        roots = CertificateStore([try Certificate(derEncoded: rootDER)])
    }

    func verify(_ token: String) async throws -> Int {
        let parts = try JWSParts(token)
        let leaf = try Certificate(derEncoded: Array(parts.certificates[0]))
        let intermediate = try Certificate(derEncoded: Array(parts.certificates[1]))
        var verifier = Verifier(rootCertificates: roots) {
            RFC5280Policy(fixedExpiryValidationTime: parts.signedDate)
            AppStoreOIDPolicy()
        }
        let result = await verifier.validate(leaf: leaf, intermediates: CertificateStore([intermediate]))
        guard case .validCertificate(let chain) = result, let key = P256.Signing.PublicKey(chain[0].publicKey) else {
            throw PeerDecodingError("swift-certificates: chain invalid: \(result)")
        }
        let signature = try P256.Signing.ECDSASignature(rawRepresentation: parts.signature)
        guard key.isValidSignature(signature, for: parts.signingInput) else { throw PeerDecodingError("ES256 signature invalid") }
        return 1
    }

    /// The chain is three certificates, the intermediate carries 1.2.840.113635.100.6.2.1 and the
    /// leaf 1.2.840.113635.100.6.11.1 (app-store-server-library-swift's `AppStoreOIDPolicy`).
    struct AppStoreOIDPolicy: VerifierPolicy {
        let verifyingCriticalExtensions: [ASN1ObjectIdentifier] = []
        static let intermediateMarker: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 6, 2, 1]
        static let leafMarker: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 6, 11, 1]

        mutating func chainMeetsPolicyRequirements(chain: UnverifiedCertificateChain) async -> PolicyEvaluationResult {
            guard chain.count == 3 else { return .failsToMeetPolicy(reason: "chain has unexpected length") }
            guard chain[1].extensions.contains(where: { $0.oid == Self.intermediateMarker }),
                chain[0].extensions.contains(where: { $0.oid == Self.leafMarker })
            else { return .failsToMeetPolicy(reason: "Apple OID missing") }
            return .meetsPolicy
        }
    }
}
