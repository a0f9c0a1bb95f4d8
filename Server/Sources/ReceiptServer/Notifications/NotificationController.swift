import Hummingbird
import ReceiptService

/// `POST /notifications/v2` and `POST /sandbox/notifications/v2` (App Store Server Notifications
/// V2): 200 once the notification is durable, 400 malformed, 401 not authentic, 403 another app
/// or environment, 503 storage unavailable or every verification slot taken (with `Retry-After`;
/// Apple retries), 413 for a body over `--max-body`.
struct NotificationController {
    let service: NotificationService
    let maxBody: Int

    var endpoints: RouteCollection<ServerRequestContext> {
        let routes = RouteCollection(context: ServerRequestContext.self)
        for endpoint in NotificationEndpoint.allCases {
            routes.post(RouterPath(endpoint.path)) { request, _ in await receive(request, at: endpoint) }
        }
        return routes
    }

    func receive(_ request: Request, at endpoint: NotificationEndpoint) async -> ServiceAnswer {
        await PostedBody.answer(request, maxBody: maxBody, unreadable: { service.unreadableBody(at: endpoint).closing() }) { body in
            await service.receive(body: body, at: endpoint)
        }
    }
}
