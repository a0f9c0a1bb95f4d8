import AppStoreJWS
import Foundation
import X509Certificates

/// `jws/verify` and `jws/verify-warm`: the real Apple-signed notification in the shared fixtures
/// (`jws/apple-real-test-notification.jws`: leaf ← WWDR G6 ← Apple Root CA - G3), verified at
/// its `signedDate` by each peer from the token text, doing the same work:
/// - split the token and decode the header, its `x5c` and the payload's `signedDate`;
/// - parse the certificates, verify the two P-384 links to Apple Root CA - G3 (held by the
///   peer's trust store, built once) and the Apple marker extensions;
/// - verify the ES256 signature (P-256, SHA-256) over the signing input.
/// Ours: `JWSVerifier()`; cold without and warm with a `VerifiedLinkCache` and a `JWSHeaderCache`
/// warmed once (Apple's links verified, the leaf's key with its table, the `x5c` header decoded
/// and SHA-256 after it kept: what a server's verifier holds after its first token). OpenSSL:
/// `d2i_X509` ×3, `X509_verify_cert` with the intermediate untrusted and the time set, the two
/// extensions looked up, `EVP_DigestVerify`. swift-crypto + swift-certificates: as Apple's
/// app-store-server-library-swift does it (`Verifier` with `RFC5280Policy` and a policy for the
/// two OIDs, then `P256.Signing.PublicKey`). The peers remember nothing: warm equals cold.
enum JWSCases {
    static let verifyTarget = Target(maxRatio: [.openssl: 1.0], text: "≤1× openssl")
    static let warmTarget = Target(maxRatio: [.swift: 0.5], text: "≤0.5× swift-certificates")

    static let token = String(decoding: Fixtures.bytes("jws/apple-real-test-notification.jws"), as: UTF8.self)
        .trimmingCharacters(in: .whitespacesAndNewlines)
    static let rootG3DER = Fixtures.bytes("certs/AppleRootCA-G3.cer")

    static func verify(warm: Bool) throws -> BenchmarkCase {
        let token = Self.token
        let tokenBytes = Array(token.utf8)
        let cache = warm ? VerifiedLinkCache() : nil
        let verifier = JWSVerifier(policy: .appStoreSignedData, linkStore: cache, headerCache: warm ? JWSHeaderCache() : nil)
        if warm { _ = try verifier.verify(tokenBytes) }
        let openssl = OpenSSLJWS(rootDER: rootG3DER)
        let swift = try SwiftCertificatesJWS(rootDER: rootG3DER)
        return BenchmarkCase(
            name: warm ? "jws/verify-warm" : "jws/verify", expected: 1, byteCount: tokenBytes.count,
            implementations: [
                Implementation(peer: .ours, body: .sync { try verifier.verify(tokenBytes).chain.count == 3 ? 1 : 0 }),
                Implementation(peer: .openssl, body: .sync { try openssl.verify(token) }),
                Implementation(peer: .swift, body: .async { try await swift.verify(token) }),
            ], target: warm ? warmTarget : verifyTarget)
    }
}

/// The parts every peer takes from the token text with Foundation: the signing input, the
/// signature, the `x5c` DER and the payload's `signedDate`.
struct JWSParts {
    let signingInput: Data
    let signature: Data
    let certificates: [Data]
    let signedDate: Date

    init(_ token: String) throws {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let header = Self.base64URL(parts[0]), let payload = Self.base64URL(parts[1]),
            let signature = Self.base64URL(parts[2])
        else { throw PeerDecodingError("not a compact JWS") }
        let decoder = JSONDecoder()
        let fields = try decoder.decode(Header.self, from: header)
        guard fields.alg == "ES256", let x5c = fields.x5c, x5c.count == 3 else { throw PeerDecodingError("unexpected header") }
        certificates = try x5c.map { entry in
            guard let der = Data(base64Encoded: entry) else { throw PeerDecodingError("x5c entry is not base64") }
            return der
        }
        let body = try decoder.decode(Body.self, from: payload)
        guard let milliseconds = body.signedDate else { throw PeerDecodingError("no signedDate") }
        signedDate = Date(timeIntervalSince1970: milliseconds / 1000)
        signingInput = Data(token.utf8.prefix(parts[0].utf8.count + 1 + parts[1].utf8.count))
        self.signature = signature
    }

    private struct Header: Decodable { let alg: String?; let x5c: [String]? }
    private struct Body: Decodable { let signedDate: Double? }

    static func base64URL(_ text: Substring) -> Data? {
        var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while standard.count % 4 != 0 { standard += "=" }
        return Data(base64Encoded: standard)
    }
}
