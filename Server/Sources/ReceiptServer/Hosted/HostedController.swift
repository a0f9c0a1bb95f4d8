import Foundation
import Hummingbird
import NIOCore
import ReceiptService

/// `POST /v1/receipt` and `POST /v1/receipt/encrypted`: the hosted-validator API. HTTP 200 with
/// a JSON body (`status`, `description`, and `receipt` or `encrypted` for status 0), 429 with
/// `Retry-After` past the key's rate, 413 for a body over `--max-body`.
struct HostedRoutes {
    let service: HostedService
    let maxBody: Int

    func register(on router: Router<ServerRequestContext>) {
        for endpoint in HostedEndpoint.allCases {
            router.post(RouterPath(endpoint.path)) { request, _ in
                await answer(request, at: endpoint)
            }
        }
    }

    func answer(_ request: Request, at endpoint: HostedEndpoint) async -> Response {
        let answer: HostedAnswer
        switch await PostedBody.read(request, maxBody: maxBody) {
        case .body(let body):
            answer = await service.answer(body: body, contentType: request.headers[.contentType], at: endpoint)
        case .tooLarge:
            return VerifyRoutes.tooLarge()
        case .unreadable:
            var response = VerifyRoutes.json(service.unreadableRequest(at: endpoint).json)
            response.headers[.connection] = "close"
            return response
        }
        var response = VerifyRoutes.json(answer.json, status: HTTPResponse.Status(code: answer.httpStatus))
        if let retryAfter = answer.retryAfter { response.headers[.retryAfter] = String(retryAfter) }
        return response
    }
}
