import AppStoreJWS

/// Why a Get Retention Message request gets no message: the answer's result and a one-line
/// reason that never holds the token nor the customer's data.
struct RetentionRefusal: Error, Sendable, Equatable {
    /// Which answer (never `message`).
    let result: RetentionAnswer.Result
    /// One line, without the token.
    let reason: String

    init(_ result: RetentionAnswer.Result, _ reason: String) {
        self.result = result
        self.reason = reason
    }

    /// A verification failure, by the `JWSError` category: malformed → 400, not authentic → 401,
    /// the other environment or another app's Apple id → 403, revocation status unavailable → 503.
    init(_ error: JWSError) {
        switch error.category {
        case .malformed: self.init(.malformed, error.description)
        case .notAuthentic: self.init(.notAuthentic, error.description)
        case .unexpectedValue: self.init(.refused, error.description)
        case .revocationUnavailable: self.init(.unavailable, error.description)
        }
    }
}
