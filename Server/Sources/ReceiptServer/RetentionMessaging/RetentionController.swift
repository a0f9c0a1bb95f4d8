import Foundation
import Hummingbird
import ReceiptService

/// `POST /retention/v1/realtime/{bundleId}` and `POST /sandbox/retention/v1/realtime/{bundleId}`
/// (the Retention Messaging API's Get Retention Message endpoint): 200 with the app's configured
/// `RealtimeResponseBody`, 404 when none is configured (Apple then shows its default message),
/// 400 malformed, 401 not authentic or not fresh, 403 another app or environment, 503 every
/// verification slot taken (with `Retry-After`), 413 for a body over `--max-body`.
struct RetentionController {
    let service: RetentionService
    let maxBody: Int

    var endpoints: RouteCollection<ServerRequestContext> {
        let routes = RouteCollection(context: ServerRequestContext.self)
        for endpoint in RetentionEndpoint.allCases {
            let path = endpoint.path.replacingOccurrences(of: "{bundleId}", with: ":bundleId")
            routes.post(RouterPath(path)) { request, context in
                await receive(request, bundleID: context.parameters.get("bundleId") ?? "", at: endpoint)
            }
        }
        return routes
    }

    func receive(_ request: Request, bundleID: String, at endpoint: RetentionEndpoint) async -> ServiceAnswer {
        await PostedBody.answer(request, maxBody: maxBody, unreadable: { service.unreadableBody(at: endpoint).closing() }) { body in
            await service.answer(body: body, bundleID: bundleID, at: endpoint)
        }
    }
}
