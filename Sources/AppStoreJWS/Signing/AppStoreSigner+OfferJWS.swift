import Foundation
import JSONText

/// The signed requests of "Generating JWS to sign App Store requests": each a compact JWS with
/// header `{alg: ES256, kid, typ: JWT}` and claims of its own followed by `bid`, `iss`, `aud`,
/// `iat` (integer seconds) and `nonce` (a fresh lowercase UUID), in the order Apple's Python
/// library (`JWSSignatureCreator._create_signature`, 3.1.2) writes them. The time and the nonce are
/// parameters, defaulted to now and to a random UUID, so that tests can fix them.
extension AppStoreSigner {
    /// A promotional offer signature, version 2 (StoreKit's
    /// `Product.PurchaseOption.promotionalOffer(_:compactJWS:)`): audience `promotional-offer`,
    /// claims `productId`, `offerIdentifier` and, when given, `transactionId`
    /// (Apple's `PromotionalOfferV2SignatureCreator`).
    ///
    /// - Parameters:
    ///   - productID: The product's identifier.
    ///   - offerIdentifier: The promotional offer's identifier from App Store Connect.
    ///   - transactionID: Any transaction of the customer's (the app transaction's id will do);
    ///     optional but recommended by Apple.
    ///   - issuedAt: The `iat` claim, seconds since 1970.
    ///   - nonce: The `nonce` claim.
    public func promotionalOfferV2Signature(
        productID: String, offerIdentifier: String, transactionID: String? = nil,
        issuedAt: Int64 = AppStoreSigner.currentTime(), nonce: String = AppStoreSigner.randomNonce()
    ) -> String {
        offerJWS(audience: "promotional-offer", issuedAt: issuedAt, nonce: nonce) { claims in
            claims.add("productId", productID)
            claims.add("offerIdentifier", offerIdentifier)
            if let transactionID { claims.add("transactionId", transactionID) }
        }
    }

    /// An introductory offer eligibility signature (StoreKit's
    /// `Product.PurchaseOption.introductoryOfferEligibility(compactJWS:)`): audience
    /// `introductory-offer-eligibility`, claims `productId`, `allowIntroductoryOffer` and
    /// `transactionId` (Apple's `IntroductoryOfferEligibilitySignatureCreator`).
    ///
    /// - Parameters:
    ///   - productID: The product's identifier.
    ///   - allowIntroductoryOffer: Whether the customer may have the introductory offer.
    ///   - transactionID: Any transaction of the customer's (the app transaction's id will do).
    ///   - issuedAt: The `iat` claim, seconds since 1970.
    ///   - nonce: The `nonce` claim.
    public func introductoryOfferEligibilitySignature(
        productID: String, allowIntroductoryOffer: Bool, transactionID: String,
        issuedAt: Int64 = AppStoreSigner.currentTime(), nonce: String = AppStoreSigner.randomNonce()
    ) -> String {
        offerJWS(audience: "introductory-offer-eligibility", issuedAt: issuedAt, nonce: nonce) { claims in
            claims.add("productId", productID)
            claims.add("allowIntroductoryOffer", allowIntroductoryOffer)
            claims.add("transactionId", transactionID)
        }
    }

    /// An Advanced Commerce API in-app request (StoreKit's
    /// `Product.PurchaseOption.advancedCommerceData(_:)`): audience `advanced-commerce-api`,
    /// claim `request`, the standard base64 (RFC 4648 §4) of the request's JSON exactly as given
    /// (Apple's `AdvancedCommerceAPIInAppSignatureCreator`, which encodes `json.dumps` of the
    /// request object).
    ///
    /// - Parameters:
    ///   - requestJSON: The request's UTF-8 JSON text; it must be a JSON object.
    ///   - issuedAt: The `iat` claim, seconds since 1970.
    ///   - nonce: The `nonce` claim.
    /// - Throws: `AppStoreSignerError.requestNotJSONObject`.
    public func advancedCommerceInAppSignature(
        requestJSON: [UInt8], issuedAt: Int64 = AppStoreSigner.currentTime(), nonce: String = AppStoreSigner.randomNonce()
    ) throws(AppStoreSignerError) -> String {
        do {
            try PayloadObject.read(requestJSON) { (_, reader) throws(JWSPayloadError) in _ = try reader.skipValue() }
        } catch {
            throw .requestNotJSONObject(error)
        }
        return offerJWS(audience: "advanced-commerce-api", issuedAt: issuedAt, nonce: nonce) { claims in
            claims.add("request", Base64.encodeStandard(requestJSON))
        }
    }

    /// Now, in whole seconds since 1970 (rounded down): the default `iat`.
    public static func currentTime() -> Int64 {
        Int64(Date().timeIntervalSince1970.rounded(.down))
    }

    /// A fresh random UUID in lowercase, as Python's `str(uuid.uuid4())`: the default `nonce`.
    public static func randomNonce() -> String {
        UUIDText.random()
    }

    /// The claims `specific` writes, then `bid`, `iss`, `aud`, `iat`, `nonce`, signed.
    private func offerJWS(audience: String, issuedAt: Int64, nonce: String, _ specific: (inout JSONObjectText) -> Void) -> String {
        var claims = JSONObjectText()
        specific(&claims)
        claims.add("bid", bundleID)
        claims.add("iss", issuerID)
        claims.add("aud", audience)
        claims.add("iat", issuedAt)
        claims.add("nonce", nonce)
        return compactJWS(claims: claims)
    }
}
