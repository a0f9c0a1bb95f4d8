import CryptoPrimitives

extension AppStoreSigner {
    /// The promotional offer signature StoreKit's original API asks for ("Generating a signature
    /// for promotional offers"; `Product.PurchaseOption.promotionalOffer(offerID:keyID:nonce:
    /// signature:timestamp:)`): standard base64 of the DER ECDSA P-256 SHA-256 signature over
    /// `bundleId`, `keyId`, `productId`, `offerId`, `appAccountToken`, `nonce` and `timestamp`
    /// joined by U+2063 INVISIBLE SEPARATOR, with `appAccountToken` and `nonce` in lowercase.
    ///
    /// As Apple's Python library (`PromotionalOfferSignatureCreator.create_signature`, 3.1.2):
    /// `appAccountToken` is any string (empty when the purchase has none) and is lowercased;
    /// `nonce` must be a UUID. Send the app the same nonce and timestamp; the signature is valid
    /// for 24 hours from `timestamp`.
    ///
    /// - Parameters:
    ///   - productID: The subscription's product identifier.
    ///   - offerID: The promotional offer's identifier from App Store Connect.
    ///   - appAccountToken: The purchase's app account token, or the empty string.
    ///   - nonce: A UUID generated for this signature alone (36-character form, either case).
    ///   - timestamp: Milliseconds since 1970, when the server made the signature.
    /// - Throws: `AppStoreSignerError.nonceNotUUID`.
    public func promotionalOfferSignature(
        productID: String, offerID: String, appAccountToken: String, nonce: String, timestamp: Int64
    ) throws(AppStoreSignerError) -> String {
        let payload = try promotionalOfferPayload(
            productID: productID, offerID: offerID, appAccountToken: appAccountToken, nonce: nonce, timestamp: timestamp)
        return Base64.encodeStandard(key.derSignature(for: SHA256.hash(Array(payload.utf8))))
    }

    /// The text signed by `promotionalOfferSignature`, as Apple's Python library builds it.
    func promotionalOfferPayload(
        productID: String, offerID: String, appAccountToken: String, nonce: String, timestamp: Int64
    ) throws(AppStoreSignerError) -> String {
        guard let nonce = UUIDText.canonical(nonce) else { throw .nonceNotUUID }
        let separator = "\u{2063}"
        return [bundleID, keyID, productID, offerID, appAccountToken.lowercased(), nonce, String(timestamp)]
            .joined(separator: separator)
    }
}
