import Foundation
import Hummingbird
import NIOCore
import ReceiptService

/// `GET /`: the inspector page (one self-contained HTML document: no external scripts, fonts or
/// styles, so it works offline), and `POST /inspect`: the report for the posted bytes (a receipt,
/// binary or base64, or a StoreKit 2 token). Nothing is stored. `--inspector off` leaves both out.
struct InspectorRoutes {
    let inspector: Inspector
    let maxBody: Int

    func register(on router: Router<BasicRequestContext>) {
        router.get("/") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/html; charset=utf-8", .contentSecurityPolicy: InspectorPage.contentSecurityPolicy],
                     body: ResponseBody(byteBuffer: ByteBuffer(string: InspectorPage.html)))
        }
        router.post("/inspect") { request, _ in
            switch await PostedBody.read(request, maxBody: maxBody) {
            case .body(let body): return VerifyRoutes.json(inspector.inspect([UInt8](body)))
            case .tooLarge: return VerifyRoutes.tooLarge()
            case .unreadable: return VerifyRoutes.json(#"{"error":"the request body was not received whole"}"#, status: .badRequest)
            }
        }
    }
}
