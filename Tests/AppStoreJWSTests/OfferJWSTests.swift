@testable import AppStoreJWS
import CryptoPrimitives
import Foundation
import Testing

/// The JWS of "Generating JWS to sign App Store requests": header, each audience's claims in
/// Apple's Python library's order, `iat` and `nonce` as given, signatures that verify.
@Suite struct OfferJWSTests {
    static let signer = AppStoreSignerTests.signer
    static let nonce = "5b1c3c43-8d52-4cb0-9a0a-6a43bd4d7d0e"

    /// The claims JSON text of `token`, after checking its header and signature.
    static func claimsText(_ token: String) throws -> String {
        let parts = AppStoreSignerTests.parts(token)
        try #require(parts.count == 3)
        #expect(try AppStoreSignerTests.json(parts[0]) as NSDictionary == ["alg": "ES256", "kid": "2X9R4HXF34", "typ": "JWT"] as NSDictionary)
        let signature = try #require(Base64.decodeURL(Array(parts[2].utf8)[...]))
        let digest = SHA256.hash(Array((parts[0] + "." + parts[1]).utf8))
        #expect(AppStoreSignerTests.key.publicKey.isValidSignature(rawRepresentation: signature, digest: digest))
        return String(decoding: try #require(Base64.decodeURL(Array(parts[1].utf8)[...])), as: UTF8.self)
    }

    static let common = #""bid":"com.example.app","iss":"57246542-96fe-1a63-e053-0824d011072a""#

    @Test func promotionalOfferV2() throws {
        let token = Self.signer.promotionalOfferV2Signature(
            productID: "com.example.monthly", offerIdentifier: "WINBACK", transactionID: "2000000000000001",
            issuedAt: 1_700_000_000, nonce: Self.nonce)
        #expect(
            try Self.claimsText(token)
                == #"{"productId":"com.example.monthly","offerIdentifier":"WINBACK","transactionId":"2000000000000001","#
                + Self.common + #","aud":"promotional-offer","iat":1700000000,"nonce":"5b1c3c43-8d52-4cb0-9a0a-6a43bd4d7d0e"}"#)
    }

    @Test func promotionalOfferV2WithoutTransactionHasNoTransactionClaim() throws {
        let token = Self.signer.promotionalOfferV2Signature(
            productID: "p", offerIdentifier: "o", issuedAt: 1_700_000_000, nonce: Self.nonce)
        #expect(
            try Self.claimsText(token)
                == #"{"productId":"p","offerIdentifier":"o","# + Self.common
                + #","aud":"promotional-offer","iat":1700000000,"nonce":"5b1c3c43-8d52-4cb0-9a0a-6a43bd4d7d0e"}"#)
    }

    @Test func introductoryOfferEligibility() throws {
        for allow in [true, false] {
            let token = Self.signer.introductoryOfferEligibilitySignature(
                productID: "p", allowIntroductoryOffer: allow, transactionID: "7", issuedAt: 1_700_000_000, nonce: Self.nonce)
            #expect(
                try Self.claimsText(token)
                    == #"{"productId":"p","allowIntroductoryOffer":\#(allow),"transactionId":"7","# + Self.common
                    + #","aud":"introductory-offer-eligibility","iat":1700000000,"nonce":"5b1c3c43-8d52-4cb0-9a0a-6a43bd4d7d0e"}"#)
        }
    }

    @Test func advancedCommerceRequestIsStandardBase64OfTheJSONAsGiven() throws {
        let request = Array(#"{"operation": "CREATE_ONE_TIME_CHARGE", "descriptors": {"displayName": "Caf\u00e9 +/"}}"#.utf8)
        let token = try Self.signer.advancedCommerceInAppSignature(requestJSON: request, issuedAt: 1_700_000_000, nonce: Self.nonce)
        let claims = try #require(try JSONSerialization.jsonObject(with: Data(try Self.claimsText(token).utf8)) as? [String: Any])
        #expect(claims["aud"] as? String == "advanced-commerce-api")
        #expect(claims["request"] as? String == Data(request).base64EncodedString())
        #expect(claims.keys.sorted() == ["aud", "bid", "iat", "iss", "nonce", "request"])
    }

    @Test(arguments: ["", "[]", "\"text\"", "{", #"{"a":1} x"#, #"{"a":1,"a":2}"#])
    func advancedCommerceRequestMustBeAJSONObject(_ text: String) {
        #expect(throws: AppStoreSignerError.self) {
            try Self.signer.advancedCommerceInAppSignature(requestJSON: Array(text.utf8), issuedAt: 1, nonce: Self.nonce)
        }
    }

    @Test func timeAndNonceDefaultToNowAndAFreshUUID() throws {
        let before = AppStoreSigner.currentTime()
        func claims() throws -> [String: Any]? {
            let text = try Self.claimsText(Self.signer.promotionalOfferV2Signature(productID: "p", offerIdentifier: "o"))
            return try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        }
        let first = try claims()
        let second = try claims()
        let iat = try #require(first?["iat"] as? Int64)
        #expect(iat >= before && iat <= AppStoreSigner.currentTime())
        let nonce = try #require(first?["nonce"] as? String)
        #expect(UUIDText.canonical(nonce) == nonce)
        #expect(second?["nonce"] as? String != nonce)
    }
}
