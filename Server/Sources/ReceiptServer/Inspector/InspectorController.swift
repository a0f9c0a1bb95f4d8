import Hummingbird
import ReceiptService

/// `GET /`: the inspector page (one self-contained HTML document: no external scripts, fonts or
/// styles, so it works offline), and `POST /inspect`: the report for the posted bytes (a receipt,
/// binary or base64, or a StoreKit 2 token; `InspectorService`, which bounds it per client
/// address and by the verification slots). Nothing is stored. `--inspector off` leaves both out.
struct InspectorController {
    let service: InspectorService
    let maxBody: Int

    var endpoints: RouteCollection<ServerRequestContext> {
        RouteCollection(context: ServerRequestContext.self)
            .get("/") { _, _ in Self.page }
            .post("/inspect") { request, context in await inspect(request, from: context.clientAddress) }
    }

    /// The page, with its `Content-Security-Policy`.
    static let page: ServiceAnswer = {
        var page = ServiceAnswer(InspectorPage.html, contentType: .html)
        page.contentSecurityPolicy = InspectorPage.contentSecurityPolicy
        return page
    }()

    func inspect(_ request: Request, from address: String) async -> ServiceAnswer {
        if let refusal = service.refusal(for: address) { return refusal }
        return await PostedBody.answer(request, maxBody: maxBody, unreadable: service.unreadableBody) { body in
            await service.inspect(body: body)
        }
    }
}
