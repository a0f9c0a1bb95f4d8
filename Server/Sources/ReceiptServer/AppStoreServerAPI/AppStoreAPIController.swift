import Foundation
import Hummingbird
import NIOCore
import ReceiptService
import ReceiptStore

/// The App Store Server API (DESIGN §13) at `/inApps/…` (production) and `/sandbox/inApps/…`,
/// so that Apple's own client needs only a new base URL. Every request first presents Apple's
/// bearer JWT (any failure: 401 with an empty body, as Apple's), then passes the key's token
/// bucket (429 4290000 with `Retry-After`); answers are JSON with `Content-Type:
/// application/json` exactly.
struct AppStoreAPIRoutes {
    let service: AppStoreAPIService
    let authenticator: AppStoreAPIAuthenticator
    let rate: RateLimiter
    let maxBody: Int

    /// The two path prefixes and the environment each answers for.
    static let prefixes = [("", "Production"), ("/sandbox", "Sandbox")]

    func register(on router: Router<ServerRequestContext>) {
        for (prefix, environment) in Self.prefixes {
            get(router, prefix + "/inApps/v1/subscriptions/:transactionId") { request, id, app in
                await service.subscriptionStatuses(transactionID: id, query: Self.query(request), bundleID: app, environment: environment)
            }
            get(router, prefix + "/inApps/v1/transactions/:transactionId") { _, id, app in
                await service.transactionInfo(transactionID: id, bundleID: app, environment: environment)
            }
            for version in ["v1", "v2"] {
                get(router, prefix + "/inApps/\(version)/history/:transactionId") { request, id, app in
                    await service.history(transactionID: id, query: Self.query(request), bundleID: app, environment: environment)
                }
            }
            get(router, prefix + "/inApps/v2/refund/lookup/:transactionId") { request, id, app in
                await service.refundHistory(transactionID: id, query: Self.query(request), bundleID: app, environment: environment)
            }
            post(router, prefix + "/inApps/v1/notifications/history") { request, body, app in
                await service.notificationHistory(
                    body: body, paginationToken: request.uri.queryParameters["paginationToken"].map(String.init), bundleID: app,
                    environment: environment)
            }
            post(router, prefix + "/inApps/v1/transactions") { _, body, app in
                await service.post(body: body, bundleID: app, environment: environment)
            }
        }
    }

    /// A GET route taking the path's transaction id.
    private func get(
        _ router: Router<ServerRequestContext>, _ path: String,
        _ handle: @escaping @Sendable (Request, String, String) async -> AppStoreAPIAnswer
    ) {
        router.get(RouterPath(path)) { request, context in
            await authorized(request) { app in
                await handle(request, context.parameters.get("transactionId") ?? "", app)
            }
        }
    }

    /// A POST route taking the body (under `--max-body`).
    private func post(
        _ router: Router<ServerRequestContext>, _ path: String,
        _ handle: @escaping @Sendable (Request, Data, String) async -> AppStoreAPIAnswer
    ) {
        router.post(RouterPath(path)) { request, _ in
            await authorized(request) { app in
                switch await PostedBody.read(request, maxBody: maxBody) {
                case .body(let body): return await handle(request, body, app)
                case .tooLarge: return nil
                case .unreadable: return AppStoreAPIAnswer(.generalBadRequest)
                }
            }
        }
    }

    /// Authentication, then the key's rate, then the answer (nil: 413); the storage calls of all
    /// of it (a key reload, the look-ups, a save) share one deadline, so a request is answered
    /// (5000001 when storage fails) within it.
    private func authorized(_ request: Request, _ answer: (String) async -> AppStoreAPIAnswer?) async -> Response {
        await StorageBudget.shared { await authorizedWithinBudget(request, answer) }
    }

    private func authorizedWithinBudget(_ request: Request, _ answer: (String) async -> AppStoreAPIAnswer?) async -> Response {
        let now = EpochMilliseconds.now()
        guard let caller = await authenticator.authenticate(request.headers[.authorization], now: now) else {
            return Response(status: .unauthorized, headers: [.contentLength: "0"])
        }
        if let retryAfter = rate.take(caller.keyID) {
            return Self.response(AppStoreAPIAnswer(.rateLimited, retryAfter: retryAfter))
        }
        guard let result = await answer(caller.bundleID) else { return VerifyRoutes.tooLarge() }
        return Self.response(result)
    }

    static func response(_ answer: AppStoreAPIAnswer) -> Response {
        var response = VerifyRoutes.json(answer.json, status: HTTPResponse.Status(code: answer.httpStatus))
        if let retryAfter = answer.retryAfter { response.headers[.retryAfter] = String(retryAfter) }
        return response
    }

    /// The query's parameters in order, percent-decoded.
    static func query(_ request: Request) -> [(name: String, value: String)] {
        request.uri.queryParameters.map { (name: String($0.key), value: String($0.value)) }
    }
}
