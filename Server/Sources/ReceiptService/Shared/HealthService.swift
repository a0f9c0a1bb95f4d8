import ReceiptStore

/// `GET /health`: 200 `{"status":"ok"}` while the database answers a query, else 503
/// `{"status":"unavailable"}`.
public struct HealthService: Sendable {
    let store: any ReceiptStorage

    /// Health of `store`.
    public init(store: any ReceiptStorage) {
        self.store = store
    }

    /// The answer now.
    public func check() async -> ServiceAnswer {
        do {
            try await store.ping()
            return ServiceAnswer(#"{"status":"ok"}"#)
        } catch {
            return ServiceAnswer(httpStatus: 503, #"{"status":"unavailable"}"#)
        }
    }
}
