import Hummingbird
import ReceiptService

/// `GET /inApps/v1/metrics?from=YYYY-MM-DD&to=YYYY-MM-DD` (production) and `/sandbox/inApps/…`
/// (DESIGN §18), behind the App Store Server API's gate (`AppStoreAPIGate`). Named apart from
/// `/metrics`, the Prometheus listener's counters of the server itself.
struct SubscriptionMetricsController {
    let service: SubscriptionMetricsService
    let gate: AppStoreAPIGate

    var endpoints: RouteCollection<ServerRequestContext> {
        let routes = RouteCollection(context: ServerRequestContext.self)
        for (prefix, environment) in AppStoreAPIController.prefixes {
            routes.get(RouterPath(prefix + "/inApps/v1/metrics")) { request, _ in
                await gate.admit(authorization: request.headers[.authorization]) { app in
                    await service.metrics(query: AppStoreAPIController.query(request), bundleID: app, environment: environment)
                }
            }
        }
        return routes
    }
}
