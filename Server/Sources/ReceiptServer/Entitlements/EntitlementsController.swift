import Hummingbird
import ReceiptService

/// `GET /inApps/v1/entitlements/{appAccountToken}` (production) and `/sandbox/inApps/…`
/// (DESIGN §18), behind the App Store Server API's gate (`AppStoreAPIGate`: the same ES256 JWT,
/// `bid` the app; any failure 401 with an empty body).
struct EntitlementsController {
    let service: EntitlementsService
    let gate: AppStoreAPIGate

    var endpoints: RouteCollection<ServerRequestContext> {
        let routes = RouteCollection(context: ServerRequestContext.self)
        for (prefix, environment) in AppStoreAPIController.prefixes {
            routes.get(RouterPath(prefix + "/inApps/v1/entitlements/:appAccountToken")) { request, context in
                await gate.admit(authorization: request.headers[.authorization]) { app in
                    await service.entitlements(
                        appAccountToken: context.parameters.get("appAccountToken") ?? "", bundleID: app, environment: environment)
                }
            }
        }
        return routes
    }
}
