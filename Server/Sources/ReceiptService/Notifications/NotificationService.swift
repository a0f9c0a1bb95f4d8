import AppStoreJWS
import Foundation
import Logging
import Metrics
import ReceiptStore
import X509Certificates

/// App Store Server Notifications V2 over the root library and a store; knows nothing of HTTP.
///
/// A notification is verified (`NotificationVerifier`: the App Store signed-data policy, the
/// nested tokens, the app registry, the endpoint's environment), then stored once by its
/// notificationUUID with what it tells of a transaction and a renewal (`ReceiptStorage.save`), and
/// answered `stored` only once durable. Later `verifyReceipt` answers merge what it told with
/// what receipts told (`latest_receipt_info`, `pending_renewal_info`).
public final class NotificationService: Sendable {
    let store: any ReceiptStorage
    let registry: AppRegistry
    let verifier: NotificationVerifier
    let metrics: NotificationMetrics
    let logger: Logger
    let limit: VerificationLimit
    let refusals: RefusalLog
    let revocation: RevocationGate?

    /// `anchors` replace Apple Root CA - G3 under the App Store rules (`--root-g3`); nil: G3.
    /// `limit` bounds the verifications in flight (shared with the other routes; the `ingest`
    /// command has none). `revocation`: OCSP on request (`--revocation ocsp`); nil, nothing online.
    public init(
        store: any ReceiptStorage, registry: AppRegistry, anchors: [TrustAnchor]?, metrics: NotificationMetrics, logger: Logger,
        limit: VerificationLimit = .unlimited, revocation: RevocationGate? = nil
    ) {
        self.store = store
        self.registry = registry
        self.revocation = revocation
        verifier = NotificationVerifier(anchors: anchors, revocation: revocation)
        self.metrics = metrics
        self.logger = logger
        self.limit = limit
        refusals = RefusalLog(kind: "notification", logger: logger, factory: metrics.factory)
    }

    /// Answers a request body posted to `endpoint`; 503 (`busy`) at once when every verification
    /// slot is taken.
    public func receive(body: Data, at endpoint: NotificationEndpoint) async -> ServiceAnswer {
        guard let token = SignedPayloadBody.token(body) else {
            return finish(
                NotificationAnswer(result: .malformed, notificationType: nil, reason: #"body is not a JSON object with a "signedPayload" string"#),
                at: endpoint.path
            ).answer
        }
        guard let answer = await limit.run(at: endpoint.path, { await accept(token, environment: endpoint.environment, at: endpoint.path) }) else {
            return finish(NotificationAnswer(result: .busy, notificationType: nil, reason: "the server is busy; retry later"), at: endpoint.path)
                .answer
        }
        return answer.answer
    }

    /// The answer for a body the client never finished sending.
    public func unreadableBody(at endpoint: NotificationEndpoint) -> ServiceAnswer {
        finish(NotificationAnswer(result: .malformed, notificationType: nil, reason: "the request body was not received whole"), at: endpoint.path)
            .answer
    }

    /// The `signedPayload` of a request body, or nil when the body is not a JSON object with a
    /// `signedPayload` string.
    public static func signedPayload(in body: Data) -> String? {
        SignedPayloadBody.token(body)
    }

    /// Stores a `signedPayload` as the endpoint of its own `data.environment` would
    /// (`receipt-server ingest`: replaying notifications a server missed).
    public func ingest(_ token: String) async -> NotificationAnswer {
        await accept(token, environment: nil, at: "ingest")
    }

    private func accept(_ token: String, environment: String?, at endpoint: String) async -> NotificationAnswer {
        let record: NotificationRecord
        do throws(NotificationRefusal) {
            let verify = { () throws(NotificationRefusal) in
                try self.metrics.verification.measure { () throws(NotificationRefusal) in
                    try self.verifier.record(token, environment: environment, registry: self.registry)
                }
            }
            if let revocation { record = try await revocation.verifying(verify) } else { record = try verify() }
        } catch {
            let result: NotificationAnswer.Result =
                switch error.kind {
                case .malformed: .malformed
                case .notAuthentic: .notAuthentic
                case .refused: .refused
                case .unavailable: .unavailable
                }
            return finish(
                NotificationAnswer(result: result, notificationType: error.notificationType, reason: Self.oneLine(error.reason)),
                at: endpoint)
        }
        do {
            try await metrics.storage.measure { try await store.save(WebhookEvent.attached(to: record)) }
        } catch {
            logger.error("storage unavailable", metadata: ["error": "\(error)", "endpoint": "\(endpoint)"])
            return finish(
                NotificationAnswer(result: .unavailable, notificationType: record.type, reason: "storage unavailable; retry later"),
                at: endpoint, record)
        }
        return finish(NotificationAnswer(result: .stored, notificationType: record.type, reason: nil), at: endpoint, record)
    }

    /// Counts and logs an answer (never the token: the notification by its verified UUID only).
    private func finish(_ answer: NotificationAnswer, at endpoint: String, _ record: NotificationRecord? = nil) -> NotificationAnswer {
        metrics.answered(endpoint, answer)
        var metadata: Logger.Metadata = ["endpoint": "\(endpoint)", "result": "\(answer.result.rawValue)"]
        if let record {
            metadata["notification_uuid"] = "\(record.uuid)"
            metadata["type"] = "\(record.type)"
            metadata["bundle_id"] = "\(record.bundleID)"
        } else if let type = answer.notificationType {
            metadata["type"] = "\(NotificationMetrics.label(type))"
        }
        if let reason = answer.reason { metadata["reason"] = "\(reason)" }
        switch answer.result {
        case .stored: logger.debug("notification", metadata: metadata)
        case .malformed, .notAuthentic, .refused: refusals.refused("notification", metadata)
        case .unavailable: logger.notice("notification", metadata: metadata)
        case .busy: break   // counted in /metrics (result="busy"); a line each would flood the log
        }
        return answer
    }

    /// A reason as one line of at most 300 characters.
    static func oneLine(_ text: String) -> String {
        let line = String(text.map { $0.isNewline ? " " : $0 })
        return line.count <= 300 ? line : String(line.prefix(299)) + "…"
    }
}
