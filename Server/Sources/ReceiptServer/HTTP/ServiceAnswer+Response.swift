import Hummingbird
import NIOCore
import ReceiptService

/// The one place a service's answer becomes an HTTP response: its status, its body with its
/// `Content-Type` (or `Content-Length: 0` without one), `Retry-After`, `Connection: close`, and
/// an HTML page's `Content-Security-Policy`. Handlers return `ServiceAnswer`s.
extension ServiceAnswer: ResponseGenerator {
    public func response(from request: Request, context: some RequestContext) -> Response {
        let status = HTTPResponse.Status(code: httpStatus)
        var response: Response
        if let contentType {
            response = Response(
                status: status, headers: [.contentType: contentType.rawValue], body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
        } else {
            response = Response(status: status, headers: [.contentLength: "0"])
        }
        if let contentSecurityPolicy { response.headers[.contentSecurityPolicy] = contentSecurityPolicy }
        if let setCookie { response.headers[.setCookie] = setCookie }
        if let retryAfter { response.headers[.retryAfter] = String(retryAfter) }
        if closesConnection { response.headers[.connection] = "close" }
        return response
    }
}
