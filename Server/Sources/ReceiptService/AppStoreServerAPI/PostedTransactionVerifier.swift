import AppStoreJWS
import Foundation
import ReceiptStore
import X509Certificates

/// What an app's backend posts to `POST /inApps/v1/transactions`: `{"signedTransactionInfo": JWS}`
/// (a StoreKit 2 `Transaction.jwsRepresentation`) or `{"signedAppTransaction": JWS}`.
enum PostedToken: Sendable, Hashable {
    case transaction(String)
    case appTransaction(String)

    /// The token of a body holding exactly one of the two members as a string (a member that is
    /// `null` counts as absent, as in every body Apple reads) and no member twice
    /// (`StrictJSONBody`).
    init(body: Data) throws(AppStoreAPIError) {
        guard let members = try? JSONDecoder().decode(Members.self, from: body) else {
            throw .badRequest("The body is not a JSON object.")
        }
        if let problem = StrictJSONBody.problem(body) { throw .badRequest("The body is not strict JSON (\(problem)).") }
        switch (members.signedTransactionInfo, members.signedAppTransaction) {
        case (.value(let token), .absent): self = .transaction(token)
        case (.absent, .value(let token)): self = .appTransaction(token)
        default: throw .badRequest(#"The body must hold one of "signedTransactionInfo" and "signedAppTransaction", a string."#)
        }
    }

    private struct Members: Decodable {
        var signedTransactionInfo: JSONMember<String>, signedAppTransaction: JSONMember<String>

        enum CodingKeys: String, CodingKey { case signedTransactionInfo, signedAppTransaction }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            (signedTransactionInfo, signedAppTransaction) = (JSONMember(c, .signedTransactionInfo), JSONMember(c, .signedAppTransaction))
        }
    }
}

/// Verifies a posted token for a caller's app at an environment (DESIGN §13): the App Store
/// signed-data policy (Apple Root CA - G3, or the `--root-g3` anchors), or the Xcode one for a
/// token whose environment is `Xcode` at the sandbox prefix with `--allow-xcode`; the payload's
/// `bundleId` must be the caller's `bid` and its environment the prefix's. The transaction then
/// passes the notifications' member and date rules (`NotificationVerifier.transaction`).
struct PostedTransactionVerifier: Sendable {
    let appStore: JWSVerifier
    let xcode: JWSVerifier?

    /// `revocation`: App Store paths are asked about (`--revocation ocsp`; Xcode's certificates
    /// name no responder).
    init(anchors: [TrustAnchor]?, allowXcode: Bool, revocation: RevocationGate? = nil, linkCache: VerifiedLinkCache = VerifiedLinkCache()) {
        appStore = .appStore(anchors: anchors, revocation: revocation, linkCache: linkCache)
        xcode = allowXcode ? JWSVerifier(policy: .xcodeSignedData) : nil
    }

    /// The verifier and the environment expected at the `Production` or `Sandbox` prefix:
    /// Xcode's when the token claims `Xcode` at the sandbox prefix with `--allow-xcode` (the claim,
    /// read before verification, only picks the policy; verification then holds the payload to it).
    func verifier(at environment: String, claimed: @autoclosure () -> String?) -> (JWSVerifier, String) {
        if environment == "Sandbox", let xcode, claimed() == "Xcode" { return (xcode, "Xcode") }
        return (appStore, environment)
    }

    /// A payload's member read without verification, or nil.
    static func unverified<Payload>(_ token: String, _ decode: ([UInt8]) throws -> Payload) -> Payload? {
        guard let jws = try? CompactJWS(token) else { return nil }
        return try? decode(jws.payload)
    }

    /// A posted signed transaction as stored.
    func transaction(_ token: String, bundleID: String, at environment: String) throws(AppStoreAPIError) -> PostedTransaction {
        let (verifier, expected) = verifier(
            at: environment, claimed: Self.unverified(token, JWSTransactionDecodedPayload.init(payload:))?.environment)
        let payload: JWSTransactionDecodedPayload
        do {
            payload = try verifier.verifyTransaction(token, expecting: JWSExpectation(bundleId: bundleID, environment: expected))
        } catch {
            throw Self.refusal("signedTransactionInfo", error)
        }
        do {
            let app = NotificationApp(bundleID: bundleID, environment: expected)
            let transaction = try NotificationVerifier.transaction(payload, jws: token, of: app)
            return PostedTransaction(bundleID: bundleID, environment: expected, transaction: transaction)
        } catch {
            throw .badRequest(NotificationService.oneLine(error.reason))
        }
    }

    /// A posted signed app transaction, verified: the environment it was verified in, and its
    /// record to store (nil when it names no `appTransactionId`: `SignedAppTransaction.record`).
    func appTransaction(_ token: String, bundleID: String, at environment: String) throws(AppStoreAPIError) -> PostedAppTransaction {
        let (verifier, expected) = verifier(at: environment, claimed: Self.unverified(token, AppTransaction.init(payload:))?.receiptType)
        let app: AppTransaction
        do {
            app = try verifier.verifyAppTransaction(token, expecting: JWSExpectation(bundleId: bundleID, environment: expected))
        } catch {
            throw Self.refusal("signedAppTransaction", error)
        }
        return PostedAppTransaction(
            environment: expected, record: SignedAppTransaction.record(app, jws: token, bundleID: bundleID, environment: expected))
    }

    /// A posted token's refusal: 4000000 naming the rule, or 503 when its revocation status
    /// could not be had (a later attempt may succeed).
    static func refusal(_ member: String, _ error: JWSError) -> AppStoreAPIError {
        if error.category == .revocationUnavailable { return .revocationUnavailable }
        return .badRequest(member + ": " + NotificationService.oneLine(error.description))
    }
}

/// A verified posted app transaction: the environment it was verified in and what is stored of it.
struct PostedAppTransaction: Sendable {
    let environment: String
    let record: AppTransactionRecord?
}
