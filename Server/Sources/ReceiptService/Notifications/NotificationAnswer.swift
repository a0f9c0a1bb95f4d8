import AppReceipt

/// The answer to one notification: an HTTP status and a small JSON body. Apple's sender reads only
/// the status and retries anything but 200.
public struct NotificationAnswer: Sendable, Equatable {
    /// What happened, as `/metrics` and `receipt-server ingest` count it.
    public enum Result: String, Sendable {
        /// Durable in the database (possibly stored before: the same notificationUUID again).
        case stored
        /// 400: the body is not `{"signedPayload": JWS}`, or the token or a payload is malformed.
        case malformed
        /// 401: not authentic.
        case notAuthentic = "not_authentic"
        /// 403: authentic, but for an app not served here, or for the other environment.
        case refused
        /// 503: storage did not take it; Apple retries.
        case unavailable
        /// 503 with `Retry-After`: every verification slot was taken (`--max-verifications`).
        case busy
    }

    /// What happened.
    public let result: Result
    /// The verified `notificationType`, when verification got that far.
    public let notificationType: String?
    /// The one-line reason of a refusal.
    public let reason: String?

    /// 200, 400, 401, 403 or 503.
    public var httpStatus: Int {
        switch result {
        case .stored: return 200
        case .malformed: return 400
        case .notAuthentic: return 401
        case .refused: return 403
        case .unavailable, .busy: return 503
        }
    }

    /// Seconds for `Retry-After`: when the request was shed.
    var retryAfter: Int? {
        result == .busy ? VerificationLimit.retryAfterSeconds : nil
    }

    /// `{"status":"stored"}`, or `{"error":"…"}` with the reason.
    var json: String {
        guard let reason else { return #"{"status":"stored"}"# }
        return #"{"error":"# + ReceiptJSON.quoted(reason) + "}"
    }

    /// The answer as the endpoint gives it: `httpStatus`, `json`, `Retry-After` when shed.
    public var answer: ServiceAnswer {
        ServiceAnswer(httpStatus: httpStatus, json, retryAfter: retryAfter)
    }
}
