import Hummingbird
import ReceiptService

/// `GET /openapi.yaml` and `GET /openapi.json`: the server's OpenAPI document (`OpenAPIDocument`),
/// the same document in two notations.
struct OpenAPIController {
    var endpoints: RouteCollection<ServerRequestContext> {
        RouteCollection(context: ServerRequestContext.self)
            .get("/openapi.yaml") { _, _ in ServiceAnswer(OpenAPIDocument.yamlText, contentType: .yaml) }
            .get("/openapi.json") { _, _ in
                guard let json = OpenAPIDocument.json else {
                    return ServiceAnswer(httpStatus: 500, #"{"error":"the OpenAPI document does not parse"}"#)
                }
                return ServiceAnswer(json)
            }
    }
}
