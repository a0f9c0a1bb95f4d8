import Logging

/// How a process opens a SQLite database (PostgreSQL is shared by any number of processes and
/// takes no options).
public struct OpenOptions: Sendable, Hashable {
    /// Create a missing file (logging its absolute path); otherwise a missing file is
    /// `StoreError.missingDatabase`.
    public var createsFile: Bool
    /// Hold the file's lock (`PATH.lock`, `flock`) for as long as the store runs, so that a
    /// second server on the same file is refused (`StoreError.databaseInUse`).
    public var locksFile: Bool

    public init(createsFile: Bool, locksFile: Bool) {
        self.createsFile = createsFile
        self.locksFile = locksFile
    }

    /// The server: creates a missing file and holds its lock.
    public static let server = OpenOptions(createsFile: true, locksFile: true)
    /// A one-shot command (`stats`, `app`, `apikey`, `ingest`): opens only an existing file, beside
    /// a running server if there is one.
    public static let command = OpenOptions(createsFile: false, locksFile: false)
    /// Creates a missing file, takes no lock (tools and tests).
    public static let `default` = OpenOptions(createsFile: true, locksFile: false)
}

/// Opening a store by location.
public enum Stores {
    /// Opens the database at `location` as `options` say, applies pending migrations and checks
    /// that `secrets` is the operator key its secrets are sealed under
    /// (`StoreError.wrongSecretsKey` otherwise). The caller runs the returned store (it is a
    /// `Service`) for as long as it writes.
    public static func open(
        _ location: DatabaseLocation, secrets: any SecretsCodec, logger: Logger,
        options: OpenOptions = .default
    ) async throws(StoreError) -> any ReceiptStorage {
        switch location {
        case .sqlite(let path): return try SQLiteStore(path: path, secrets: secrets, logger: logger, options: options)
        case .postgres(let postgres): return try await PostgresStore(postgres, secrets: secrets, logger: logger)
        }
    }

    /// Opens the store, runs it while `body` uses it, then shuts it down (committing any queued
    /// write) and returns `body`'s result: for one-shot commands such as `stats`.
    public static func with<T: Sendable>(
        _ location: DatabaseLocation, secrets: any SecretsCodec, logger: Logger,
        _ body: @Sendable (any ReceiptStorage) async throws -> T
    ) async throws -> T {
        try await run(try await open(location, secrets: secrets, logger: logger), body)
    }

    /// Runs an opened `store` while `body` uses it, then shuts it down (committing any queued
    /// write) and returns `body`'s result.
    public static func run<T: Sendable>(_ store: any ReceiptStorage, _ body: @Sendable (any ReceiptStorage) async throws -> T) async throws -> T {
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
    public static func shutDown(_ store: any ReceiptStorage) async throws {
        let task = Task { try await store.run() }
        task.cancel()
        try await task.value
    }
}
