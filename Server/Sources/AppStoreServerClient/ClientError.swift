/// Why an `AppStoreServerAPIClient` request gave no answer. `reason` is one line and never holds
/// a token, a key or the server's body.
public struct AppStoreServerAPIClientError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: String, Sendable, Hashable {
        /// A 4xx answer other than 429: asking again would not help.
        case refused
        /// 429, 5xx, timeouts or connection failures, still so after the last attempt.
        case unavailable
        /// An answer that is not Apple's shape, or larger than the policy's bound.
        case malformed
    }

    /// What went wrong.
    public var kind: Kind
    /// The last HTTP status answered, when there was one.
    public var httpStatus: Int?
    /// Apple's `errorCode` of an error body, when it had one.
    public var errorCode: Int64?
    /// One line.
    public var reason: String

    /// An error as the client saw it.
    public init(_ kind: Kind, httpStatus: Int? = nil, errorCode: Int64? = nil, reason: String) {
        self.kind = kind
        self.httpStatus = httpStatus
        self.errorCode = errorCode
        self.reason = reason
    }

    public var description: String { reason }
}
