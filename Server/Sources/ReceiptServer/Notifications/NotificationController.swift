import Hummingbird
import ReceiptService

/// `POST /notifications/v2` and `POST /sandbox/notifications/v2` (App Store Server Notifications
/// V2): 200 once the notification is durable, 400 malformed, 401 not authentic, 403 another app
/// or environment, 503 storage unavailable or every verification slot taken (with `Retry-After`;
/// Apple retries), 413 for a body over `--max-body`.
struct NotificationRoutes {
    let service: NotificationService
    let maxBody: Int

    func register(on router: Router<ServerRequestContext>) {
        for endpoint in NotificationEndpoint.allCases {
            router.post(RouterPath(endpoint.path)) { request, _ in
                await answer(request, at: endpoint)
            }
        }
    }

    func answer(_ request: Request, at endpoint: NotificationEndpoint) async -> Response {
        switch await PostedBody.read(request, maxBody: maxBody) {
        case .tooLarge:
            return VerifyRoutes.tooLarge()
        case .unreadable:
            var response = Self.response(service.unreadableBody(at: endpoint))
            response.headers[.connection] = "close"
            return response
        case .body(let body):
            return Self.response(await service.receive(body: body, at: endpoint))
        }
    }

    static func response(_ answer: NotificationAnswer) -> Response {
        var response = VerifyRoutes.json(answer.json, status: HTTPResponse.Status(code: answer.httpStatus))
        if let retryAfter = answer.retryAfter { response.headers[.retryAfter] = String(retryAfter) }
        return response
    }
}
