/// PostgreSQL calls that do not answer in time fail (21100, `/health` 503) instead of holding the
/// request: the connection pool waits for a connection as long as the server is down.
struct DeadlineExceeded: Error, Sendable, CustomStringConvertible {
    var description: String { "storage did not answer in time" }
}

/// `body`'s result, or `DeadlineExceeded` once `limit` has passed (`body` is then cancelled).
func withDeadline<T: Sendable>(_ limit: Duration, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
    try await withThrowingTaskGroup(of: T.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: limit)
            throw DeadlineExceeded()
        }
        defer { group.cancelAll() }
        return try await group.next()!
    }
}
