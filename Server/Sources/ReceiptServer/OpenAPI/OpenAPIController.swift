import Hummingbird
import NIOCore

/// `GET /openapi.yaml` and `GET /openapi.json`: the server's OpenAPI document (`OpenAPIDocument`),
/// the same document in two notations.
struct OpenAPIRoutes {
    func register(on router: Router<ServerRequestContext>) {
        router.get("/openapi.yaml") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "application/yaml"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: OpenAPIDocument.yaml)))
        }
        router.get("/openapi.json") { _, _ in
            VerifyRoutes.json(
                OpenAPIDocument.json ?? #"{"error":"the OpenAPI document does not parse"}"#,
                status: OpenAPIDocument.json == nil ? .internalServerError : .ok)
        }
    }
}
