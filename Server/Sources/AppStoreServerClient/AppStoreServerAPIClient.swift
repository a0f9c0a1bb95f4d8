import AppStoreJWS
import AsyncHTTPClient
import Foundation
import NIOCore

/// A client of the App Store Server API (Apple's, or any server that answers Apple's shapes,
/// such as another receipt-server): Get Transaction History (v2) and Get All Subscription
/// Statuses, signed with bearer tokens from `AppStoreSigner`.
///
/// Whatever the server answers, the client is bounded (`AppStoreServerAPIClientPolicy`): bodies
/// are read up to a size, each attempt up to a time, 429 waits for its `Retry-After` up to a
/// limit, 5xx and failures without an answer are retried with exponential backoff up to a number
/// of attempts, redirects are not followed and nothing is decompressed. Other 4xx answers are
/// returned at once. A separate module from the import service: the service reads any
/// `ImportSource`, and only this module knows HTTP.
public final class AppStoreServerAPIClient: Sendable {
    /// Apple's production base URL, as Apple's documentation and its Python library name it.
    public static let productionURL = "https://api.storekit.apple.com"
    /// Apple's sandbox base URL.
    public static let sandboxURL = "https://api.storekit-sandbox.apple.com"

    let http: HTTPClient
    /// Without a trailing `/`: paths (`/inApps/…`) are appended.
    public let baseURL: String
    let tokens: BearerTokens
    let policy: AppStoreServerAPIClientPolicy

    /// A client of the API at `baseURL` (Apple's, or for instance `http://127.0.0.1:8080/sandbox`);
    /// `now` gives seconds since 1970 for the tokens. Call `shutdown()` when done.
    public init(
        baseURL: String, signer: AppStoreSigner, policy: AppStoreServerAPIClientPolicy = AppStoreServerAPIClientPolicy(),
        now: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) }
    ) {
        var base = baseURL
        while base.hasSuffix("/") { base.removeLast() }
        self.baseURL = base
        self.policy = policy
        tokens = BearerTokens(signer: signer, lifetime: policy.tokenLifetime, refresh: policy.tokenRefresh, now: now)
        let timeout = HTTPClient.Configuration.Timeout(
            connect: .seconds(min(10, max(1, policy.requestTimeout.components.seconds))),
            read: .seconds(max(1, policy.requestTimeout.components.seconds)))
        http = HTTPClient(
            eventLoopGroupProvider: .singleton,
            configuration: HTTPClient.Configuration(redirectConfiguration: .disallow, timeout: timeout, decompression: .disabled))
    }

    /// Closes the connections.
    public func shutdown() async throws {
        try await http.shutdown()
    }

    /// Get Transaction History v2 of `transactionID`: the page after `revision` (the first page
    /// when nil).
    public func transactionHistory(_ transactionID: String, revision: String?) async throws(AppStoreServerAPIClientError) -> HistoryResponse {
        let query = revision.map { "?revision=" + Self.percentEncoded($0) } ?? ""
        return try await get("/inApps/v2/history/" + (try Self.checked(transactionID)) + query)
    }

    /// Get All Subscription Statuses of `transactionID`.
    public func subscriptionStatuses(_ transactionID: String) async throws(AppStoreServerAPIClientError) -> StatusResponse {
        try await get("/inApps/v1/subscriptions/" + (try Self.checked(transactionID)))
    }

    /// GETs `path` and decodes its 200 body, retrying as the policy says.
    func get<Body: Decodable>(_ path: String) async throws(AppStoreServerAPIClientError) -> Body {
        let body = try await retrying(path)
        do {
            return try JSONDecoder().decode(Body.self, from: Data(body.readableBytesView))
        } catch {
            throw AppStoreServerAPIClientError(.malformed, httpStatus: 200, reason: "\(Self.endpoint(path)): the answer is not Apple's shape")
        }
    }

    /// The 200 body of `path`, after as many attempts as the policy allows.
    func retrying(_ path: String) async throws(AppStoreServerAPIClientError) -> ByteBuffer {
        var attempt = 0
        while true {
            attempt += 1
            let last = attempt >= max(1, policy.maxAttempts)
            let wait: Duration
            switch await self.attempt(path) {
            case .success(let body): return body
            case .failure(.final(let error)): throw error
            case .failure(.retry(let error, let retryAfter)):
                if last || Task.isCancelled { throw error }
                wait = retryAfter ?? policy.backoff(after: attempt) * Double.random(in: 0.5 ... 1)
            }
            do { try await Task.sleep(for: wait) } catch { throw AppStoreServerAPIClientError(.unavailable, reason: "cancelled") }
        }
    }
}
