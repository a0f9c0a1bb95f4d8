/// A `verifyReceipt` outcome: the status and the JSON body, which the service answers with
/// HTTP 200 (`answer`); the hosted API reads the status.
struct VerifyAnswer: Sendable {
    /// The body's `status`.
    let status: VerifyStatus
    /// The body.
    let json: String
    /// Whether the request was shed (every verification slot taken): 21100, retry after
    /// `VerificationLimit.retryAfterSeconds`.
    let shed: Bool

    init(status: VerifyStatus, json: String, shed: Bool = false) {
        self.status = status
        self.json = json
        self.shed = shed
    }

    /// HTTP 200 with the body, and `Retry-After` when shed.
    var answer: ServiceAnswer {
        ServiceAnswer(json, retryAfter: shed ? VerificationLimit.retryAfterSeconds : nil)
    }
}
