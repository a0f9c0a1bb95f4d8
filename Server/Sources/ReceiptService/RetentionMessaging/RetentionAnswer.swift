import AppReceipt

/// The answer to one Get Retention Message request. Apple shows the message of a 200 answer;
/// for any other answer it shows the default message the developer configured ("If your server
/// response fails for any reason, the system displays a default retention message",
/// Apple's "Responding to real-time retention messaging requests").
public struct RetentionAnswer: Sendable, Equatable {
    /// What happened.
    public enum Result: String, Sendable {
        /// 200: the app's configured message (`RealtimeResponseBody`).
        case message
        /// 404: no message is configured for the app; Apple shows its default.
        case noMessage = "no_message"
        /// 400: the body is not `{"signedPayload": JWS}`, or the token or its payload is malformed.
        case malformed
        /// 401: not authentic, or not fresh (signed more than 5 minutes ago, or in the future).
        case notAuthentic = "not_authentic"
        /// 403: authentic, but for an app not served here, another app's Apple id, or the other
        /// environment.
        case refused
        /// 503: no revocation status could be had (`--revocation ocsp`).
        case unavailable
        /// 503 with `Retry-After`: every verification slot was taken (`--max-verifications`).
        case busy
    }

    /// What happened.
    public let result: Result
    /// The message answered (`message`).
    public let message: RetentionMessage?
    /// The one-line reason of any other answer.
    public let reason: String?

    /// The configured message.
    init(_ message: RetentionMessage) {
        result = .message
        self.message = message
        reason = nil
    }

    /// Any answer but a message, with its one-line reason.
    init(_ result: Result, _ reason: String) {
        self.result = result
        message = nil
        self.reason = reason
    }

    /// 200, 400, 401, 403, 404 or 503.
    public var httpStatus: Int {
        switch result {
        case .message: return 200
        case .malformed: return 400
        case .notAuthentic: return 401
        case .refused: return 403
        case .noMessage: return 404
        case .unavailable, .busy: return 503
        }
    }

    /// The answer as the endpoint gives it: the message's `RealtimeResponseBody`, or
    /// `{"error":"…"}`; `Retry-After` when shed.
    public var answer: ServiceAnswer {
        let json = message?.json ?? #"{"error":"# + ReceiptJSON.quoted(reason ?? "") + "}"
        return ServiceAnswer(httpStatus: httpStatus, json, retryAfter: result == .busy ? VerificationLimit.retryAfterSeconds : nil)
    }
}
