import Hummingbird
import ReceiptService

/// `GET /health`: 200 while the database answers, else 503 (`HealthService`).
struct HealthController {
    let service: HealthService

    var endpoints: RouteCollection<ServerRequestContext> {
        RouteCollection(context: ServerRequestContext.self)
            .get("/health") { _, _ in await service.check() }
    }
}
