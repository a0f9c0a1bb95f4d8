import AppReceipt
import Foundation
import Logging

/// The two hosted-validator endpoints.
public enum HostedEndpoint: String, Sendable, CaseIterable {
    /// `POST /v1/receipt`: the answer in clear.
    case plain
    /// `POST /v1/receipt/encrypted`: a valid answer encrypted with the app's key.
    case encrypted

    /// The route's path.
    public var path: String {
        switch self {
        case .plain: return "/v1/receipt"
        case .encrypted: return "/v1/receipt/encrypted"
        }
    }
}

/// The hosted-validator API (the reference's "Apple Receipt Verification & Validation"): an API
/// key and an app token in front of the `verifyReceipt` service; knows nothing of HTTP.
///
/// In order: 21000 the body is neither a form nor a JSON object; 401 the key or the token is
/// missing, unknown, revoked, or they do not belong together (the key is checked first, so a
/// wrong key tells nothing about tokens); 429 past the key's rate; 403 the encrypted endpoint for
/// an app without an encryption key; then the receipt as `verifyReceipt` checks it (21002, 21003),
/// in its own environment (production first, then sandbox, as Apple advises clients to retry
/// 21007); 403 an authentic receipt of another app than the token's (bundle id, or the Apple id
/// a production receipt names); 500 storage unavailable;
/// else 0 (or 21006, an iOS 6 transaction receipt of an expired subscription) in the
/// reference's shape: `receipt` Apple's receipt object, the rest of the `verifyReceipt` answer
/// beside it (`HostedStatus.valid(verifyReceiptAnswer:)`).
public final class HostedService: Sendable {
    let verifier: VerifyReceiptService
    let registry: HostedRegistry
    let limiter: RateLimiter
    let metrics: HostedMetrics
    let logger: Logger
    let refusals: RefusalLog

    /// `rate` requests a second per API key after a burst of `burst` (rate 0: no limit).
    public init(
        verifier: VerifyReceiptService, registry: HostedRegistry, rate: Double, burst: Int,
        metrics: HostedMetrics, logger: Logger
    ) {
        self.verifier = verifier
        self.registry = registry
        limiter = RateLimiter(rate: rate, burst: burst)
        self.metrics = metrics
        self.logger = logger
        refusals = RefusalLog(kind: "hosted", logger: logger, factory: metrics.factory)
    }

    /// Answers a request body posted to `endpoint`.
    public func answer(body: Data, contentType: String?, at endpoint: HostedEndpoint, now: Date = Date()) async -> ServiceAnswer {
        let answer = await respond(body: body, contentType: contentType, at: endpoint, now: now)
        metrics.answered(endpoint, answer.status)
        if answer.status != HostedStatus.valid && answer.status != HostedStatus.serverFailure && !answer.shed {
            var metadata: Logger.Metadata = ["endpoint": "\(endpoint.path)", "status": "\(answer.status)"]
            if let reason = answer.refusalReason { metadata["reason"] = "\(reason)" }
            refusals.refused("hosted request refused", metadata)
        }
        return answer.answer
    }

    /// The answer when there is no body to read (the client stopped sending it).
    public func unreadableRequest(at endpoint: HostedEndpoint) -> ServiceAnswer {
        metrics.answered(endpoint, VerifyStatus.unreadableRequest.rawValue)
        return Self.apple(.unreadableRequest).answer
    }

    private func respond(body: Data, contentType: String?, at endpoint: HostedEndpoint, now: Date) async -> HostedAnswer {
        guard let request = HostedRequest(body: body, contentType: contentType) else { return Self.apple(.unreadableRequest) }
        let authentication = registry.authenticate(apiKey: request.apiKey, token: request.token)
        guard case .authenticated(let keyID, let app) = authentication else {
            // One label for every 401, as every 401 answer is the same: counts by cause would tell
            // whoever reads /metrics which guesses came close. The cause goes to the (rate-limited)
            // refusal log only.
            metrics.authenticationFailed()
            var answer = HostedStatus.failure(HostedStatus.unauthorized, HostedStatus.unauthorizedDescription)
            answer.refusalReason = authentication.failureReason
            return answer
        }
        if let retryAfter = limiter.take(keyID) {
            metrics.rateLimited()
            return HostedStatus.failure(
                HostedStatus.tooManyRequests, HostedStatus.tooManyRequestsDescription,
                httpStatus: HostedStatus.tooManyRequests, retryAfter: retryAfter)
        }
        if endpoint == .encrypted && app.encryptionKey == nil {
            return HostedStatus.failure(HostedStatus.forbidden, HostedStatus.noEncryptionKeyDescription)
        }
        guard let text = request.receipt, let bytes = ReceiptData.decode(text) else { return Self.apple(.malformedReceipt) }

        guard let verified = await verifier.limit.run(at: endpoint.path, { await verify(bytes, app: app, at: endpoint, now: now) }) else {
            return HostedStatus.busy()
        }
        let plain: (status: Int, json: String)
        switch verified {
        case .refused(let answer): return answer
        case .valid(let json): plain = HostedStatus.valid(verifyReceiptAnswer: json)
        }
        guard endpoint == .encrypted, let key = app.encryptionKey else {
            return HostedAnswer(httpStatus: 200, status: plain.status, json: plain.json, retryAfter: nil)
        }
        do {
            let sealed = try AnswerEncryption.seal(Array(plain.json.utf8), key: key)
            return HostedAnswer(
                httpStatus: 200, status: plain.status,
                json: #"{"status":\#(plain.status),"encrypted":""# + Data(sealed).base64EncodedString() + #""}"#, retryAfter: nil)
        } catch {
            logger.error("encryption failed", metadata: ["bundle_id": "\(app.bundleID)", "error": "\(error)"])
            return HostedStatus.failure(HostedStatus.serverFailure, "The server failed to encrypt the answer (the app's key is unusable).")
        }
    }

    private enum Verified: Sendable {
        case refused(HostedAnswer)
        /// The `verifyReceipt` answer of an authentic receipt (status 0, or 21006).
        case valid(String)
    }

    /// The receipt as `verifyReceipt` checks it, in its own environment, stored: run in a
    /// verification slot.
    private func verify(_ bytes: [UInt8], app: HostedRegistry.App, at endpoint: HostedEndpoint, now: Date) async -> Verified {
        var receiptEndpoint = VerifyEndpoint.production
        var check = verifier.check(bytes, at: receiptEndpoint)
        if case .refused(.sandboxReceiptAtProduction, _) = check {
            receiptEndpoint = .sandbox
            check = verifier.check(bytes, at: receiptEndpoint)
        }
        let receipt: VerifyReceiptService.CheckedReceipt
        switch check {
        case .refused(let status, _): return .refused(Self.apple(status))
        case .authentic(let checked): receipt = checked
        }
        if let status = await verifier.revocationRefusal(receipt.verified) { return .refused(Self.apple(status)) }
        if let refusal = Self.otherApp(receipt.verified, app) { return .refused(refusal) }
        let verified = await verifier.remember(receipt, at: receiptEndpoint, excludeOld: false, now: now, route: endpoint.path)
        guard verified.status.isAnswered else { return .refused(Self.apple(verified.status)) }
        return .valid(verified.json)
    }

    /// 403 for an authentic receipt that is not the token's app's: another bundle id, or, when the
    /// app has an Apple id, a production receipt naming another (`app_item_id`; sandbox receipts
    /// carry none). Nil when the receipt is the app's.
    static func otherApp(_ receipt: VerifiedReceipt, _ app: HostedRegistry.App) -> HostedAnswer? {
        let bundleID = receipt.record.bundleID
        guard bundleID == app.bundleID else {
            return HostedStatus.failure(HostedStatus.forbidden, HostedStatus.wrongAppDescription(receipt: bundleID, token: app.bundleID))
        }
        if let expected = app.appleID, receipt.record.environment == ReceiptEnvironment.production.verifyReceiptName,
            receipt.appItemID != expected
        {
            return HostedStatus.failure(
                HostedStatus.forbidden,
                HostedStatus.wrongAppleIDDescription(receipt: receipt.appItemID, app: expected))
        }
        return nil
    }

    /// One of Apple's statuses with its description; 21100 (storage unavailable) is the server's
    /// own failure, 500.
    static func apple(_ status: VerifyStatus) -> HostedAnswer {
        let code = status == .storageUnavailable ? HostedStatus.serverFailure : status.rawValue
        return HostedStatus.failure(code, HostedStatus.description(status))
    }
}
