import Hummingbird
import ReceiptService

/// `POST /verifyReceipt` and `POST /sandbox/verifyReceipt`: always HTTP 200 with a JSON body, as
/// Apple's, except 413 for a body over `--max-body` (answered before the body is read whole).
struct VerifyReceiptController {
    let service: VerifyReceiptService
    let maxBody: Int

    var endpoints: RouteCollection<ServerRequestContext> {
        let routes = RouteCollection(context: ServerRequestContext.self)
        for endpoint in VerifyEndpoint.allCases {
            routes.post(RouterPath(endpoint.path)) { request, _ in await verify(request, at: endpoint) }
        }
        return routes
    }

    func verify(_ request: Request, at endpoint: VerifyEndpoint) async -> ServiceAnswer {
        await PostedBody.answer(request, maxBody: maxBody, unreadable: { service.unreadableRequest(at: endpoint).closing() }) { body in
            await service.verify(body: body, at: endpoint)
        }
    }
}

/// Anything but POST on a `verifyReceipt` path is answered `{"status": 21000}` with HTTP 200, as
/// Apple did (any method, including ones the router does not know).
struct VerifyMethodMiddleware<Context: RequestContext>: RouterMiddleware {
    let service: VerifyReceiptService

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.method != .post, let endpoint = VerifyEndpoint.allCases.first(where: { $0.path == request.uri.path }) else {
            return try await next(request, context)
        }
        return service.unreadableRequest(at: endpoint).response(from: request, context: context)
    }
}
