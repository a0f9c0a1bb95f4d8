import Foundation

/// `POST /inspect` as a service: the report for posted bytes (`Inspector`), bounded twice: a
/// token bucket per client address (429 with `Retry-After` past it) and the process's
/// verification slots (shared with the other routes; 503 with `Retry-After` when all are taken).
/// Nothing is stored.
public struct InspectorService: Sendable {
    let inspector: Inspector
    /// Per client address.
    let rate: RateLimiter
    let limit: VerificationLimit

    /// Client addresses whose buckets are kept at most.
    public static let maxAddresses = 10_000

    /// `rate` requests a second per client address after a burst of `burst` (rate 0: no limit).
    public init(inspector: Inspector, rate: Double, burst: Int, limit: VerificationLimit) {
        self.inspector = inspector
        self.rate = RateLimiter(rate: rate, burst: burst, maxKeys: Self.maxAddresses)
        self.limit = limit
    }

    /// 429 when `address` has used its bucket; nil: go on and read the body.
    public func refusal(for address: String) -> ServiceAnswer? {
        guard let retryAfter = rate.take(address) else { return nil }
        return ServiceAnswer(httpStatus: 429, #"{"error":"too many requests from this address"}"#, retryAfter: retryAfter)
    }

    /// The report for the posted bytes, or 503 when every verification slot is taken.
    public func inspect(body: Data) async -> ServiceAnswer {
        guard let report = await limit.run(at: "/inspect", { inspector.inspect([UInt8](body)) }) else {
            return ServiceAnswer(httpStatus: 503, #"{"error":"the server is busy"}"#, retryAfter: VerificationLimit.retryAfterSeconds)
        }
        return ServiceAnswer(report)
    }

    /// The answer for a body the client never finished sending.
    public func unreadableBody() -> ServiceAnswer {
        ServiceAnswer(httpStatus: 400, #"{"error":"the request body was not received whole"}"#)
    }
}
