/// What every service answers one request with, whatever the surface: an HTTP status, a body of
/// text and its content type, and the seconds a refused client should wait. The services know
/// nothing of HTTP beyond these numbers; the server renders an answer into a response in one place
/// (`ReceiptServer`'s `ServiceAnswer` `ResponseGenerator`).
public struct ServiceAnswer: Sendable, Hashable {
    /// What the body is.
    public enum ContentType: String, Sendable, Hashable {
        /// `application/json`, with no parameters (Apple's Python client reads error bodies only then).
        case json = "application/json"
        /// An HTML page.
        case html = "text/html; charset=utf-8"
        /// A YAML document.
        case yaml = "application/yaml"
        /// Prometheus's text format.
        case prometheus = "text/plain; version=0.0.4; charset=utf-8"
    }

    /// The HTTP status.
    public var httpStatus: Int
    /// The body; empty with `contentType` nil.
    public var body: String
    /// The body's type; nil: no body at all (`Content-Length: 0`).
    public var contentType: ContentType?
    /// Seconds for `Retry-After` (rate limited, or shed when every verification slot is taken).
    public var retryAfter: Int?
    /// Whether the connection is closed after the answer (the request body was not read whole).
    public var closesConnection = false
    /// A `Content-Security-Policy` for an HTML page.
    public var contentSecurityPolicy: String?
    /// A `Set-Cookie` value (the dashboard's session).
    public var setCookie: String?

    /// An answer with a body of `contentType` (JSON unless told).
    public init(httpStatus: Int = 200, _ body: String, contentType: ContentType = .json, retryAfter: Int? = nil) {
        self.httpStatus = httpStatus
        self.body = body
        self.contentType = contentType
        self.retryAfter = retryAfter
    }

    /// An answer without a body (the App Store Server API's 401).
    public static func empty(httpStatus: Int) -> ServiceAnswer {
        var answer = ServiceAnswer(httpStatus: httpStatus, "")
        answer.contentType = nil
        return answer
    }

    /// The same answer, closing the connection after it.
    public func closing() -> ServiceAnswer {
        var answer = self
        answer.closesConnection = true
        return answer
    }
}
