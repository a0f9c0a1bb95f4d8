import Foundation
import Hummingbird
import ReceiptService

/// The App Store Server API (DESIGN §13) at `/inApps/…` (production) and `/sandbox/inApps/…`,
/// so that Apple's own client needs only a new base URL. Every request first passes the gate
/// (`AppStoreAPIGate`: Apple's bearer JWT, any failure 401 with an empty body as Apple's; then the
/// key's token bucket, 429 4290000 with `Retry-After`); answers are JSON with `Content-Type:
/// application/json` exactly.
struct AppStoreAPIController {
    let service: AppStoreAPIService
    let gate: AppStoreAPIGate
    let maxBody: Int

    /// The two path prefixes and the environment each answers for.
    static let prefixes = [("", "Production"), ("/sandbox", "Sandbox")]

    var endpoints: RouteCollection<ServerRequestContext> {
        let routes = RouteCollection(context: ServerRequestContext.self)
        for (prefix, environment) in Self.prefixes {
            get(routes, prefix + "/inApps/v1/subscriptions/:transactionId") { request, id, app in
                await service.subscriptionStatuses(transactionID: id, query: Self.query(request), bundleID: app, environment: environment)
            }
            get(routes, prefix + "/inApps/v1/transactions/:transactionId") { _, id, app in
                await service.transactionInfo(transactionID: id, bundleID: app, environment: environment)
            }
            get(routes, prefix + "/inApps/v1/transactions/appTransactions/:transactionId") { _, id, app in
                await service.appTransactionInfo(transactionID: id, bundleID: app, environment: environment)
            }
            for version in ["v1", "v2"] {
                get(routes, prefix + "/inApps/\(version)/history/:transactionId") { request, id, app in
                    await service.history(transactionID: id, query: Self.query(request), bundleID: app, environment: environment)
                }
            }
            get(routes, prefix + "/inApps/v2/refund/lookup/:transactionId") { request, id, app in
                await service.refundHistory(transactionID: id, query: Self.query(request), bundleID: app, environment: environment)
            }
            post(routes, prefix + "/inApps/v1/notifications/history") { request, body, app in
                await service.notificationHistory(
                    body: body, paginationToken: request.uri.queryParameters["paginationToken"].map(String.init), bundleID: app,
                    environment: environment)
            }
            post(routes, prefix + "/inApps/v1/transactions") { _, body, app in
                await service.post(body: body, bundleID: app, environment: environment)
            }
        }
        return routes
    }

    /// A GET route taking the path's transaction id.
    private func get(
        _ routes: RouteCollection<ServerRequestContext>, _ path: String,
        _ handle: @escaping @Sendable (Request, String, String) async -> ServiceAnswer
    ) {
        routes.get(RouterPath(path)) { request, context in
            await gate.admit(authorization: request.headers[.authorization]) { app in
                await handle(request, context.parameters.get("transactionId") ?? "", app)
            }
        }
    }

    /// A POST route taking the body (under `--max-body`, read once the gate admits the request).
    private func post(
        _ routes: RouteCollection<ServerRequestContext>, _ path: String,
        _ handle: @escaping @Sendable (Request, Data, String) async -> ServiceAnswer
    ) {
        routes.post(RouterPath(path)) { request, _ in
            await gate.admit(authorization: request.headers[.authorization]) { app in
                await PostedBody.answer(request, maxBody: maxBody, unreadable: { AppStoreAPIError.generalBadRequest.answer() }) { body in
                    await handle(request, body, app)
                }
            }
        }
    }

    /// The query's parameters in order, percent-decoded.
    static func query(_ request: Request) -> [(name: String, value: String)] {
        request.uri.queryParameters.map { (name: String($0.key), value: String($0.value)) }
    }
}
