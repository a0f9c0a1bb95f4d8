import AppStoreJWS
import Foundation
import Logging
import Metrics
import X509Certificates

/// The Retention Messaging API's Get Retention Message endpoint over the root library; knows
/// nothing of HTTP and stores nothing.
///
/// A request is verified (`RetentionVerifier`: the App Store signed-data policy, the endpoint's
/// environment, the app's Apple id, freshness, the app registry), then answered with the
/// message configured for the app (`RetentionMessages`), or 404 when there is none, so that
/// Apple shows the default message. Nothing the request says about the customer is used or
/// logged: refusals are logged by reason (`RefusalLog`, kind `retention`), answers by app and
/// Apple's `requestIdentifier`.
public final class RetentionService: Sendable {
    let registry: AppRegistry
    let messages: RetentionMessages
    let verifier: RetentionVerifier
    let logger: Logger
    let limit: VerificationLimit
    let refusals: RefusalLog
    let revocation: RevocationGate?
    let now: @Sendable () -> Int64

    /// `anchors` replace Apple Root CA - G3 under the App Store rules (`--root-g3`); nil: G3.
    /// `limit` bounds the verifications in flight (shared with the other routes). `revocation`:
    /// OCSP on request (`--revocation ocsp`). `now`: the time in milliseconds since 1970.
    public init(
        registry: AppRegistry, messages: RetentionMessages, anchors: [TrustAnchor]?, factory: any MetricsFactory, logger: Logger,
        limit: VerificationLimit = .unlimited, revocation: RevocationGate? = nil,
        now: @escaping @Sendable () -> Int64 = { Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)) }
    ) {
        self.registry = registry
        self.messages = messages
        verifier = RetentionVerifier(anchors: anchors, revocation: revocation)
        self.logger = logger
        self.limit = limit
        self.revocation = revocation
        self.now = now
        refusals = RefusalLog(kind: "retention", logger: logger, factory: factory)
    }

    /// Answers a request body posted to `endpoint` for the app `bundleID` (the URL's); 503
    /// (`busy`) at once when every verification slot is taken.
    public func answer(body: Data, bundleID: String, at endpoint: RetentionEndpoint) async -> ServiceAnswer {
        guard let token = (try? RealtimeRequestBody(body: Array(body)))?.signedPayload else {
            return finish(RetentionAnswer(.malformed, #"body is not a JSON object with a "signedPayload" string"#), at: endpoint).answer
        }
        let answer = await limit.run(at: endpoint.path) { await self.answer(token, bundleID: bundleID, at: endpoint) }
        return (answer ?? finish(RetentionAnswer(.busy, "the server is busy; retry later"), at: endpoint)).answer
    }

    /// The answer for a body the client never finished sending.
    public func unreadableBody(at endpoint: RetentionEndpoint) -> ServiceAnswer {
        finish(RetentionAnswer(.malformed, "the request body was not received whole"), at: endpoint).answer
    }

    private func answer(_ token: String, bundleID: String, at endpoint: RetentionEndpoint) async -> RetentionAnswer {
        let request: DecodedRealtimeRequestBody
        do throws(RetentionRefusal) {
            let verify = { () throws(RetentionRefusal) in
                try self.verifier.request(token, bundleID: bundleID, at: endpoint, registry: self.registry, now: self.now())
            }
            if let revocation { request = try await revocation.verifying(verify) } else { request = try verify() }
        } catch {
            return finish(RetentionAnswer(error.result, NotificationService.oneLine(error.reason)), at: endpoint)
        }
        guard let message = messages.message(for: bundleID) else {
            let reason = "no retention message is configured for \(bundleID): Apple shows the default message"
            return finish(RetentionAnswer(.noMessage, reason), at: endpoint, bundleID: bundleID, request: request)
        }
        return finish(RetentionAnswer(message), at: endpoint, bundleID: bundleID, request: request)
    }

    /// Logs an answer: never the token nor the customer's data (original transaction id,
    /// locale); an answered request by its app and Apple's `requestIdentifier`.
    private func finish(
        _ answer: RetentionAnswer, at endpoint: RetentionEndpoint, bundleID: String? = nil, request: DecodedRealtimeRequestBody? = nil
    ) -> RetentionAnswer {
        var metadata: Logger.Metadata = ["endpoint": "\(endpoint.path)", "result": "\(answer.result.rawValue)"]
        if let bundleID { metadata["bundle_id"] = "\(bundleID)" }
        if let identifier = request?.requestIdentifier { metadata["request_identifier"] = "\(NotificationService.oneLine(identifier))" }
        if let reason = answer.reason { metadata["reason"] = "\(reason)" }
        switch answer.result {
        case .message, .noMessage: logger.debug("retention message", metadata: metadata)
        case .malformed, .notAuthentic, .refused: refusals.refused("retention request", metadata)
        case .unavailable: logger.notice("retention request", metadata: metadata)
        case .busy: break   // a line each would flood the log; the HTTP counters count 503s
        }
        return answer
    }
}
