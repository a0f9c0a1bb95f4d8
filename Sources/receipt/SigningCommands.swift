import AppStoreJWS
import VerifyCommandCore

/// The commands that sign with an App Store Connect key (issue 37): each prints one line, the
/// token or signature, and exits 0; 64 on a usage error, 2 when the key file is not a P-256 key.
enum SigningCommands {
    /// `jwt --key FILE --key-id KID --issuer ISSUER_ID --bundle-id BID [--audience AUD]
    /// [--issued-at SECONDS] [--lifetime SECONDS]`: the App Store Server API's bearer token
    /// ("Generating JSON Web Tokens for API requests"; Apple refuses an `exp` more than 60
    /// minutes after `iat`, so `--lifetime` is at most 3600).
    static func jwt(_ options: inout Options) throws {
        try options.rejectOperands()
        let shared = try SignerOptions(&options, issuer: true)
        let audience = try options.value("--audience") ?? "appstoreconnect-v1"
        let issuedAt = try options.issuedAt()
        let lifetime = try options.integer("--lifetime", in: 1 ... 3600) ?? 300
        try options.rejectUnknown()
        let signer = try shared.signer()
        Output.write(signer.serverAPIToken(issuedAt: issuedAt, lifetime: lifetime, audience: audience) + "\n")
    }

    /// `offer-signature --key FILE --key-id KID --bundle-id BID --product PID --offer OFFER_ID
    /// --app-account-token UUID --nonce UUID --timestamp MS`: the promotional offer signature
    /// ("Generating a signature for promotional offers"); `--app-account-token ''` when none.
    static func offerSignature(_ options: inout Options) throws {
        try options.rejectOperands()
        let shared = try SignerOptions(&options, issuer: false)
        let product = try options.required("--product")
        let offer = try options.required("--offer")
        let appAccountToken = try options.required("--app-account-token")
        let nonce = try options.required("--nonce")
        guard let timestamp = try options.integer("--timestamp", in: 0 ... Int64.max) else {
            throw ToolFailure.usage("--timestamp is required")
        }
        try options.rejectUnknown()
        let signer = try shared.signer()
        do {
            Output.write(
                try signer.promotionalOfferSignature(
                    productID: product, offerID: offer, appAccountToken: appAccountToken, nonce: nonce, timestamp: timestamp) + "\n")
        } catch {
            throw ToolFailure.usage("--nonce: \(error)")
        }
    }

    /// `offer-jws promotional-offer|introductory-eligibility|advanced-commerce --key FILE
    /// --key-id KID --issuer ISSUER_ID --bundle-id BID [--issued-at SECONDS]` and the kind's
    /// options ("Generating JWS to sign App Store requests").
    static func offerJWS(_ options: inout Options) throws {
        guard options.positionals.count == 1 else {
            throw ToolFailure.usage("offer-jws expects one of promotional-offer, introductory-eligibility, advanced-commerce")
        }
        let shared = try SignerOptions(&options, issuer: true)
        let issuedAt = try options.issuedAt()
        let sign: (AppStoreSigner) throws -> String
        switch options.positionals[0] {
        case "promotional-offer":
            let product = try options.required("--product-id")
            let offer = try options.required("--offer-identifier")
            let transaction = try options.value("--transaction-id")
            sign = {
                $0.promotionalOfferV2Signature(productID: product, offerIdentifier: offer, transactionID: transaction, issuedAt: issuedAt)
            }
        case "introductory-eligibility":
            let product = try options.required("--product-id")
            let allow = try boolean(options.required("--allow-introductory-offer"), "--allow-introductory-offer")
            let transaction = try options.required("--transaction-id")
            sign = {
                $0.introductoryOfferEligibilitySignature(
                    productID: product, allowIntroductoryOffer: allow, transactionID: transaction, issuedAt: issuedAt)
            }
        case "advanced-commerce":
            let path = try options.required("--request-json")
            try options.rejectUnknown()
            let request = try Input.readRaw(path)
            sign = { signer in
                do {
                    return try signer.advancedCommerceInAppSignature(requestJSON: request, issuedAt: issuedAt)
                } catch {
                    throw ToolFailure(status: .malformed, message: "\(path): \(error)")
                }
            }
        case let kind:
            throw ToolFailure.usage(
                "unknown offer-jws kind '\(kind)': promotional-offer, introductory-eligibility or advanced-commerce")
        }
        try options.rejectUnknown()
        Output.write(try sign(try shared.signer()) + "\n")
    }

    private static func boolean(_ text: String, _ name: String) throws -> Bool {
        switch text {
        case "true": return true
        case "false": return false
        default: throw ToolFailure.usage("\(name) expects true or false, not '\(text)'")
        }
    }
}
