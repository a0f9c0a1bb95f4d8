import Foundation
import Hummingbird
import NIOCore
import ReceiptService

/// `GET /`: the inspector page (one self-contained HTML document: no external scripts, fonts or
/// styles, so it works offline), and `POST /inspect`: the report for the posted bytes (a receipt,
/// binary or base64, or a StoreKit 2 token). Nothing is stored. `--inspector off` leaves both out.
///
/// `/inspect` is bounded twice: a token bucket per client address (`--inspect-rate`,
/// `--inspect-burst`; 429 with `Retry-After` past it) and the process's verification slots
/// (`--max-verifications`, shared with the other routes; 503 with `Retry-After` when all are
/// taken).
struct InspectorRoutes {
    let inspector: Inspector
    let maxBody: Int
    /// Per client address.
    let rate: RateLimiter
    let limit: VerificationLimit

    /// Client addresses whose buckets are kept at most.
    static let maxAddresses = 10_000

    func register(on router: Router<ServerRequestContext>) {
        router.get("/") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/html; charset=utf-8", .contentSecurityPolicy: InspectorPage.contentSecurityPolicy],
                body: ResponseBody(byteBuffer: ByteBuffer(string: InspectorPage.html)))
        }
        router.post("/inspect") { request, context in
            await inspect(request, from: context.clientAddress)
        }
    }

    func inspect(_ request: Request, from address: String) async -> Response {
        if let retryAfter = rate.take(address) {
            return Self.refused(#"{"error":"too many requests from this address"}"#, status: .tooManyRequests, retryAfter: retryAfter)
        }
        switch await PostedBody.read(request, maxBody: maxBody) {
        case .tooLarge: return VerifyRoutes.tooLarge()
        case .unreadable: return VerifyRoutes.json(#"{"error":"the request body was not received whole"}"#, status: .badRequest)
        case .body(let body):
            guard let report = await limit.run(at: "/inspect", { inspector.inspect([UInt8](body)) }) else {
                return Self.refused(#"{"error":"the server is busy"}"#, status: .serviceUnavailable, retryAfter: VerificationLimit.retryAfterSeconds)
            }
            return VerifyRoutes.json(report)
        }
    }

    static func refused(_ json: String, status: HTTPResponse.Status, retryAfter: Int) -> Response {
        var response = VerifyRoutes.json(json, status: status)
        response.headers[.retryAfter] = String(retryAfter)
        return response
    }
}
