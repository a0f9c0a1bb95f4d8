/// A hosted-validator outcome: the HTTP status (200, or 429 past the rate limit), the body, and
/// for 429 the seconds in `Retry-After`; the service answers with `answer`, and counts and logs
/// by the body's `status`.
struct HostedAnswer: Sendable {
    /// 200, or 429 past the key's rate.
    let httpStatus: Int
    /// The body's `status`: 0, 401, 403, 500, or one of Apple's codes.
    let status: Int
    /// The body: a JSON object.
    let json: String
    /// Seconds for `Retry-After` (429, and 21100 when the request was shed).
    let retryAfter: Int?
    /// Whether the request was shed (every verification slot taken).
    var shed = false
    /// Why a 401 was answered, for the log only (the answer and the metrics are the same for every 401).
    var refusalReason: String?

    init(httpStatus: Int, status: Int, json: String, retryAfter: Int?) {
        self.httpStatus = httpStatus
        self.status = status
        self.json = json
        self.retryAfter = retryAfter
    }

    /// The answer as the service gives it.
    var answer: ServiceAnswer {
        ServiceAnswer(httpStatus: httpStatus, json, retryAfter: retryAfter)
    }
}
