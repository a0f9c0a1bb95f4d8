import Hummingbird
import ReceiptService

/// `POST /v1/receipt` and `POST /v1/receipt/encrypted`: the hosted-validator API. HTTP 200 with
/// a JSON body (`status`, `description`, and `receipt` or `encrypted` for status 0), 429 with
/// `Retry-After` past the key's rate, 413 for a body over `--max-body`.
struct HostedController {
    let service: HostedService
    let maxBody: Int

    var endpoints: RouteCollection<ServerRequestContext> {
        let routes = RouteCollection(context: ServerRequestContext.self)
        for endpoint in HostedEndpoint.allCases {
            routes.post(RouterPath(endpoint.path)) { request, _ in await answer(request, at: endpoint) }
        }
        return routes
    }

    func answer(_ request: Request, at endpoint: HostedEndpoint) async -> ServiceAnswer {
        await PostedBody.answer(request, maxBody: maxBody, unreadable: { service.unreadableRequest(at: endpoint).closing() }) { body in
            await service.answer(body: body, contentType: request.headers[.contentType], at: endpoint)
        }
    }
}
