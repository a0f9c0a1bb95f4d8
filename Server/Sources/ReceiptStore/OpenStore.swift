import Logging

/// Opening a store by location.
public enum Stores {
    /// Opens the database at `location`, applies pending migrations and checks that `secrets` is
    /// the operator key its secrets are sealed under (`StoreError.wrongSecretsKey` otherwise). The
    /// caller runs the returned store (it is a `Service`) for as long as it writes.
    public static func open(_ location: DatabaseLocation, secrets: any SecretsCodec, logger: Logger) async throws(StoreError) -> any ReceiptStore {
        switch location {
        case .sqlite(let path): return try SQLiteStore(path: path, secrets: secrets, logger: logger)
        case .postgres(let postgres): return try await PostgresStore(postgres, secrets: secrets, logger: logger)
        }
    }

    /// Opens the store, runs it while `body` uses it, then shuts it down (committing any queued
    /// write) and returns `body`'s result: for one-shot commands such as `stats`.
    public static func with<T: Sendable>(_ location: DatabaseLocation, secrets: any SecretsCodec, logger: Logger,
                                         _ body: @Sendable (any ReceiptStore) async throws -> T) async throws -> T {
        try await run(try await open(location, secrets: secrets, logger: logger), body)
    }

    /// Runs an opened `store` while `body` uses it, then shuts it down (committing any queued
    /// write) and returns `body`'s result.
    public static func run<T: Sendable>(_ store: any ReceiptStore, _ body: @Sendable (any ReceiptStore) async throws -> T) async throws -> T {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await store.run() }
            do {
                let result = try await body(store)
                group.cancelAll()
                try await group.waitForAll()
                return result
            } catch {
                group.cancelAll()
                try? await group.waitForAll()
                throw error
            }
        }
    }

    /// Shuts down a store that was opened but never run as a service.
    public static func shutDown(_ store: any ReceiptStore) async throws {
        let task = Task { try await store.run() }
        task.cancel()
        try await task.value
    }
}
