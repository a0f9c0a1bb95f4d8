import Foundation
import Hummingbird
import NIOCore
import ReceiptService

/// `POST /verifyReceipt` and `POST /sandbox/verifyReceipt`: always HTTP 200 with a JSON body, as
/// Apple's, except 413 for a body over `--max-body` (answered before the body is read whole).
struct VerifyRoutes {
    let service: VerifyReceiptService
    let maxBody: Int

    func register(on router: Router<ServerRequestContext>) {
        for endpoint in VerifyEndpoint.allCases {
            router.post(RouterPath(endpoint.path)) { request, _ in
                await answer(request, at: endpoint)
            }
        }
    }

    func answer(_ request: Request, at endpoint: VerifyEndpoint) async -> Response {
        switch await PostedBody.read(request, maxBody: maxBody) {
        case .tooLarge:
            return Self.tooLarge()
        case .unreadable:
            var response = Self.json(service.unreadableRequest(at: endpoint).json)
            response.headers[.connection] = "close"
            return response
        case .body(let body):
            let answer = await service.verify(body: body, at: endpoint)
            var response = Self.json(answer.json)
            if answer.shed { response.headers[.retryAfter] = String(VerificationLimit.retryAfterSeconds) }
            return response
        }
    }

    static func json(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status, headers: [.contentType: "application/json"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }

    static func tooLarge() -> Response {
        var response = json(#"{"error":"request body too large"}"#, status: .contentTooLarge)
        response.headers[.connection] = "close"
        return response
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
        return VerifyRoutes.json(service.unreadableRequest(at: endpoint).json)
    }
}
