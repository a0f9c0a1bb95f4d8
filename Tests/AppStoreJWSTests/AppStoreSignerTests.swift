@testable import AppStoreJWS
import CryptoPrimitives
import Foundation
import Testing

/// The App Store Server API token: its header and claims read back with Foundation, its
/// signature checked by the verifier, and the encoders against Foundation's.
@Suite struct AppStoreSignerTests {
    static let key = try! P256SigningKey(rawRepresentation: (1 ... 32).map { UInt8($0) })
    static let signer = AppStoreSigner(key: key, keyID: "2X9R4HXF34", issuerID: "57246542-96fe-1a63-e053-0824d011072a", bundleID: "com.example.app")

    static func parts(_ token: String) -> [String] { token.split(separator: ".", omittingEmptySubsequences: false).map(String.init) }

    static func json(_ part: String) throws -> [String: Any] {
        let bytes = try #require(Base64.decodeURL(Array(part.utf8)[...]))
        return try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
    }

    @Test func serverAPITokenCarriesApplesMembersAndVerifies() throws {
        let token = Self.signer.serverAPIToken(issuedAt: 1_700_000_000)
        let parts = Self.parts(token)
        try #require(parts.count == 3)
        let header = try Self.json(parts[0])
        #expect(header as NSDictionary == ["alg": "ES256", "kid": "2X9R4HXF34", "typ": "JWT"] as NSDictionary)
        let claims = try Self.json(parts[1])
        #expect(
            claims as NSDictionary
                == [
                    "iss": "57246542-96fe-1a63-e053-0824d011072a", "iat": 1_700_000_000, "exp": 1_700_000_300,
                    "aud": "appstoreconnect-v1", "bid": "com.example.app",
                ] as NSDictionary)
        let signature = try #require(Base64.decodeURL(Array(parts[2].utf8)[...]))
        let digest = SHA256.hash(Array((parts[0] + "." + parts[1]).utf8))
        let valid = signature.withUnsafeBytes { Self.key.publicKey.isValidSignature(rawRepresentation: $0, digest: digest) }
        #expect(valid)
        // Deterministic nonces (RFC 6979): the same claims give the same token.
        #expect(Self.signer.serverAPIToken(issuedAt: 1_700_000_000) == token)
        #expect(Self.signer.serverAPIToken(issuedAt: 1_700_000_000, lifetime: 60, audience: "x") != token)
    }

    @Test func encodersAgreeWithFoundation() {
        for count in 0 ..< 100 {
            let bytes = (0 ..< count).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ count) }
            let standard = Data(bytes).base64EncodedString()
            #expect(Base64.encodeStandard(bytes) == standard)
            #expect(
                Base64.encodeURL(bytes)
                    == standard.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                    .replacingOccurrences(of: "=", with: ""))
        }
    }

    @Test func stringsAreEscapedAsRFC8259Requires() throws {
        var object = JSONObjectText()
        let awkward = "quote \" backslash \\ newline \n nul \u{0} tab \t é 🍎"
        object.add("a\"b", awkward)
        object.add("n", Int64(-5))
        object.add("t", true)
        let decoded = try #require(try JSONSerialization.jsonObject(with: Data(object.utf8)) as? [String: Any])
        #expect(decoded as NSDictionary == ["a\"b": awkward, "n": -5, "t": true] as NSDictionary)
    }
}

extension AppStoreSignerTests {
    @Test func extremeTimesSaturateInsteadOfTrapping() throws {
        let token = Self.signer.serverAPIToken(issuedAt: .max - 10, lifetime: 300)
        let claims = try Self.json(Self.parts(token)[1])
        #expect((claims["exp"] as? NSNumber)?.int64Value == .max)
        let early = Self.signer.serverAPIToken(issuedAt: .min + 10, lifetime: -300)
        #expect((try Self.json(Self.parts(early)[1])["exp"] as? NSNumber)?.int64Value == .min)
    }
}
